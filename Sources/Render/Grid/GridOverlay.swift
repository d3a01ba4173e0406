import Geodesy
import Grids
import MapModel

/// A map's grid for one view: the levels drawn and their styles, the geometry, and the
/// labels kept, made ready to draw (`GridDrawing`: lines of every level, finest first so
/// coarser lines lie on top, then labels). Sizes are points converted with the view's pixel
/// density only: the reference scale does not apply to grids.
///
/// In a single image, labels sit where `labelPosition` says and are never cut at the edges;
/// zone and square labels name the part of their cell that is in view. In a block of tiles
/// (`View.isTileBlock`) everything is anchored to the grid alone, labels included (edge
/// positions fall back to geographic), so tiles agree across their edges.
struct GridOverlay {
    let settings: GridSettings
    let view: View
    let text: TextEngine

    /// Space between an edge label and the image's edge, in pixels (plus the halo).
    static let edgePadding = 2.0
    /// Line labels repeat along a line about this many points apart.
    static let labelRepeat = 300.0
    /// The least gap between two labels' texts, in points.
    static let labelGap = 2.0

    /// What to generate for this view: the levels the spacing rule picks that are not hidden
    /// (a hidden level's lines go to the next finer level), on a Web Mercator view finer
    /// levels for parallels towards the poles, and the user's interval where its lines are
    /// far enough apart.
    func request() -> GridRequest {
        let ppm = 1 / view.resolution
        let minSpacing = settings.minSpacing * view.pixelsPerPoint
        var request = GridRequest(type: settings.type)
        request.minSpacing = minSpacing
        request.labelFormat = settings.labelFormat
        request.labelUnit = settings.labelUnit
        request.levels = GridLevels.automatic(
            for: settings.type, format: settings.labelFormat, pixelsPerMetre: ppm, minSpacing: minSpacing
        ).filter { settings.style(level: $0).visible }
        if settings.type == .latlong && view.plane == nil {
            request.parallelLevels = GridLevels.parallelLevels(
                format: settings.labelFormat, pixelsPerMetre: ppm, minSpacing: minSpacing
            ).filter { settings.style(level: $0).visible }
            request.parallelMinSpacing = minSpacing
        }
        if let interval = settings.interval {
            // Closer than the spacing rule allows (zoomed out), the automatic levels stand in.
            let metres = settings.type == .latlong ? GridLevels.metresPerDegree : 1
            if min(interval.x, interval.y) * metres * ppm >= minSpacing {
                request.interval = interval
                request.parallelLevels = []
            }
        }
        if let code = settings.crs { request.crs = try? GridCRSPlanes.plane(code) }
        request.labels = settings.labelsVisible
        request.labelRepeat = GridOverlay.labelRepeat * view.pixelsPerPoint
        request.cellAnchor = view.isTileBlock ? .fixed : .visiblePart
        return request
    }

    /// The levels drawn in this view and their styles.
    func levels() -> [(level: Int, style: GridLevelStyle)] {
        let request = request()
        let levels = (try? Grid.levels(request, pixelsPerMetre: 1 / view.resolution)) ?? request.levels ?? []
        return levels.map { ($0, settings.style(level: $0)) }
    }

    func font(_ style: GridLevelStyle) -> FontSpec {
        FontSpec(
            family: style.text.font, bold: style.text.bold, italic: false,
            sizePixels: style.text.size * view.pixelsPerPoint)
    }

    /// The extents of a label's text: measured once per text and font for the map's workers
    /// (`TextMeasures`, bit for bit Pango's), not looked up or shaped again in every view.
    /// Each label region and metatile is a view of its own, so the engine's layouts, kept
    /// for a view and the next, shaped the same grid texts again and again.
    /// The engine keeps the layouts it shapes here for the labels' sprites.
    func extents(of string: String, font: FontSpec) -> TextExtents {
        text.sharedGridExtents(string, font: font)
    }

    /// How far a label's box can reach from its anchor: the widest label text at the largest size.
    /// With a `cache`, measured once for each set of fonts and samples (every label region
    /// and metatile of a zoom asks again, and the samples' layouts are looked up by text).
    func labelReach(_ levels: [(level: Int, style: GridLevelStyle)], cache: GridCache? = nil) -> Double {
        let samples = ["179°59'59\"W", "179.9999°W", "10000000mN", "00000m", "UPS N", "60X"] + annotationSamples
        let fonts = levels.map { (font: font($0.style), growth: labelGrowth($0.style)) }
        func measure() -> Double {
            var reach = 0.0
            for (f, growth) in fonts {
                for sample in samples {
                    // Samples, not drawn: their layouts are not kept.
                    let e = text.sharedExtents(sample, font: f)
                    reach = max(reach, max(e.width, e.height) + 2 * growth + 4)
                }
            }
            return reach
        }
        guard let cache else { return measure() }
        let key = LabelReachKey(samples: samples, fonts: fonts.map(\.font), growths: fonts.map(\.growth))
        return cache.measure(key, measure)
    }

    /// What a label reach depends on: the texts measured, their fonts and the boxes' growth.
    private struct LabelReachKey: Hashable {
        let samples: [String]
        let fonts: [FontSpec]
        let growths: [Double]
    }

    /// How far a label's collision box reaches beyond its text: its halo, and at least half
    /// the gap every label keeps from its neighbours (so labels without a halo are not
    /// packed edge to edge).
    func labelGrowth(_ style: GridLevelStyle) -> Double {
        max((style.text.halo?.width ?? 0) * view.pixelsPerPoint, GridOverlay.labelGap / 2 * view.pixelsPerPoint)
    }

    /// The grid for this view: lines (and label anchors) generated a little beyond it.
    /// Without `labels`, only the lines (and the edge crossings) are generated.
    func geometry(
        _ levels: [(level: Int, style: GridLevelStyle)], cache: GridCache? = nil, labels: Bool = true,
        lines: Bool = true
    ) -> GridGeometry? {
        var request = request()
        request.labels = labels && settings.labelsVisible
        request.lines = lines
        let widest = levels.map { $0.style.line.width }.max() ?? 0
        request.margin = widest * view.pixelsPerPoint + 2 + markReach
        // Tiles need every label that can overlap one touching the view: two reaches out.
        // Without labels (a block whose labels come from `GridLabelRegions`) the lines alone
        // are made: only chunks that reach the margin are kept whatever area the lines are
        // looked for in, so the wider search would make the same lines with more work.
        if view.isTileBlock && request.labels { request.labelMargin = 2 * labelReach(levels, cache: cache) }
        // The levels come from the automatic rule and the area from a valid view, so this
        // cannot fail; a failure would draw no grid rather than no map.
        return try? Grid.generate(
            request, projection: ViewGridProjection(view: view), area: view.globalBounds, cache: cache)
    }

    /// The grid of this view, generated and laid out, ready to draw; nil when nothing shows.
    /// Without `labels` its labels are left to the caller (tiles take theirs from
    /// `GridLabelRegions`).
    func prepare(raster: GridLineRaster, cache: GridCache?, labels: Bool = true) -> GridDrawing? {
        let levels = levels()
        let labelled = labels && settings.labelsVisible
        guard !levels.isEmpty, let grid = geometry(levels, cache: cache, labels: labelled) else { return nil }
        let marked = markedLines(grid)
        let lines = GridLinePainter(
            levels.reversed().map { level, style in
                (marked.filter { $0.level == level }, style.line)
            }, pixelsPerPoint: view.pixelsPerPoint)
        return GridDrawing(view: view, lines: lines, raster: raster, labels: labelled ? placedLabels(grid, levels) : [])
    }

    /// The labels this view keeps, without the lines (a block of tiles: its labels hang on the
    /// grid's label anchors alone, so its lines are not made).
    func labels(cache: GridCache?) -> [GridLabelCandidate] {
        let levels = levels()
        guard settings.labelsVisible, !levels.isEmpty,
            let grid = geometry(levels, cache: cache, lines: !view.isTileBlock)
        else { return [] }
        return placedLabels(grid, levels)
    }

    /// The labels drawn, in drawing order.
    func placedLabels(_ grid: GridGeometry, _ levels: [(level: Int, style: GridLevelStyle)]) -> [GridLabelCandidate] {
        let candidates = labelCandidates(grid, levels)
        if view.isTileBlock {
            let thinned = GridLabelPlacer.thinned(
                candidates, spacing: grid.spacing, tiles: tileLabelExtents(grid, levels))
            return GridLabelPlacer.placeLocally(thinned)
        }
        let thinned = GridLabelPlacer.thinned(candidates, spacing: grid.spacing, tiles: nil)
        return GridLabelPlacer.placeGreedy(thinned, within: view.globalBounds)
    }

    /// Every label the grid could draw in this view, measured and placed, before any is dropped.
    func labelCandidates(_ grid: GridGeometry, _ levels: [(level: Int, style: GridLevelStyle)])
        -> [GridLabelCandidate]
    {
        let styles = Dictionary(uniqueKeysWithValues: levels.map { ($0.level, $0.style) })
        let geographic = view.isTileBlock || settings.labelPosition == .geographic
        var candidates: [GridLabelCandidate] = []
        // Room for every anchor's label at once: grown by doubling, the large candidates were
        // copied again and again (a block of regions has thousands).
        candidates.reserveCapacity(grid.labels.count)
        // A view's labels repeat their texts (a line's value every `labelRepeat`, a zone's
        // number on each of its lines): each text is looked up once a level here, by one
        // hash of the level and text, where the map's shared table hashes the font too and
        // takes its lock (a tenth of the label regions' candidates).
        var measuredTexts: [LevelText: TextExtents] = [:]
        var lastMeasured: (level: Int, text: String, extents: TextExtents)?
        var lastZone: String?
        var lastZoneNumber = ""

        /// A candidate whose text box has its top-left corner at `origin(width, height)`;
        /// `line` for a line's value, `room` for a cell's name.
        /// `turned`: a quarter turn to read bottom to top, `origin` given the turned box.
        func make(
            _ text: String, level: Int, rank: GridLabelRank, anchor: PlanePoint, line: LineOfLabel?,
            room: Rect?, turned: Bool = false, _ origin: (Double, Double) -> PlanePoint
        ) {
            guard let style = styles[level] else { return }
            let f = font(style)
            guard f.sizePixels >= LabelSpace.minimumTextPixels else { return }
            let text = annotatedText(text, axis: line?.axis, value: line?.value ?? 0, spacing: grid.spacing)
            let measured: TextExtents
            if let last = lastMeasured, last.level == level, last.text == text {
                // A line's stops come one after another with its text: no hashing.
                measured = last.extents
            } else {
                let levelText = LevelText(level: level, text: text)
                if let known = measuredTexts[levelText] {
                    measured = known
                } else {
                    measured = self.extents(of: text, font: f)
                    measuredTexts[levelText] = measured
                }
                lastMeasured = (level, text, measured)
            }
            let extents =
                turned
                ? (width: measured.height, height: measured.width) : (width: measured.width, height: measured.height)
            if let room, level >= 1, extents.width > room.width || extents.height > room.height { return }
            let halo = style.text.halo.map { (color: $0.color, width: $0.width * view.pixelsPerPoint) }
            let grow = labelGrowth(style)
            // Text on whole pixels of the image: crisp, and the same in every tile (tile
            // origins are whole, so these are whole global pixels too).
            func snapped(_ p: PlanePoint) -> PlanePoint {
                let unrounded = view.transform.image(global: p)
                return view.transform.global(image: PlanePoint(x: unrounded.x.rounded(), y: unrounded.y.rounded()))
            }
            let o = snapped(origin(extents.width, extents.height))
            let textBox = Rect(x: o.x, y: o.y, width: extents.width, height: extents.height)
            // Made in the array and finished there: a candidate made, changed and appended was
            // copied and destroyed.
            candidates.append(
                GridLabelCandidate(
                    text: text, font: f, color: style.text.color, halo: halo.flatMap { $0.width > 0 ? $0 : nil },
                    corner: o, textBox: textBox, box: textBox.expanded(by: grow), rank: rank, anchor: anchor))
            let made = candidates.count - 1
            candidates[made].turned = turned
            if let line {
                candidates[made].family = line.axis.labelsOnHorizontalEdges ? .x : .y
                candidates[made].value = line.value
                // Lines come zone by zone: the last zone's number is mostly this one's.
                if line.zone != lastZone {
                    lastZone = line.zone
                    lastZoneNumber = GridOverlay.zoneNumber(line.zone)
                }
                candidates[made].zoneNumber = lastZoneNumber
            }
            if let room, level >= 1, !view.isTileBlock {
                // A 100 km square's name may move into a corner of its part of the view
                // rather than go unnamed (zone names stay in their middles).
                let inset = room.expanded(by: -(grow + GridLabelPlacer.edgeClearance))
                candidates[made].alternatives = [
                    PlanePoint(x: inset.minX, y: inset.minY), PlanePoint(x: inset.maxX - extents.width, y: inset.minY),
                    PlanePoint(x: inset.minX, y: inset.maxY - extents.height),
                    PlanePoint(x: inset.maxX - extents.width, y: inset.maxY - extents.height),
                ].map(snapped)
            }
        }

        // Each label borrowed where it lies (`for label in grid.labels` copied it).
        grid.labels.withUnsafeBufferPointer { labels in
            for i in labels.indices where labels[i].kind == .cell || geographic {
                let line = labels[i].kind == .line ? lineOf(labels[i]) : nil
                let anchor = labels[i].anchor
                make(
                    labels[i].text, level: labels[i].level, rank: labels[i].rank, anchor: anchor, line: line,
                    room: labels[i].room
                ) { w, h in
                    PlanePoint(x: anchor.x - w / 2, y: anchor.y - h / 2)
                }
            }
        }
        if !geographic {
            edgeLabels(grid) {
                make($0, level: $1, rank: $2, anchor: $3, line: $4.map(LineOfLabel.init), room: nil, turned: $5, $6)
            }
        }
        return candidates
    }

    /// A label text at a level (whose style gives its font), measured once a view.
    private struct LevelText: Hashable {
        let level: Int
        let text: String
    }

    /// The digits a grid zone designator starts with (`18` of `18T`; empty for the UPS zones).
    /// Designators are ASCII, whose only numbers are the digits: compared as bytes, since
    /// `Character.isNumber` looks Unicode properties up (a fifth of the label regions' time
    /// making candidates).
    static func zoneNumber(_ zone: String?) -> String {
        guard let zone else { return "" }
        let bytes = zone.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(zone.prefix { $0.isNumber }) }
        return String(decoding: bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
    }

    /// What a line label takes from its line: its axis, value and zone.
    struct LineOfLabel {
        let axis: GridAxis
        let value: Double
        let zone: String?

        init(_ line: GridLine) {
            self.init(axis: line.axis, value: line.value, zone: line.zone)
        }

        init(axis: GridAxis, value: Double, zone: String?) {
            self.axis = axis
            self.value = value
            self.zone = zone
        }
    }

    /// The line a line label repeats the value of (its axis, value and zone are what matter):
    /// those alone, not a `GridLine` made of the label (its text, level and rank copied and
    /// let go again for each of a block's thousands of labels).
    private func lineOf(_ label: GridLabel) -> LineOfLabel? {
        guard let axis = label.axis else { return nil }
        return LineOfLabel(axis: axis, value: label.lineValue ?? 0, zone: label.zone)
    }

    /// In tiles: how long a label of each family runs along the spacing of its lines (the
    /// widest value text for meridians and eastings, the tallest for the others), plus the
    /// gap, and the pixels per degree or metre where lines are closest (the equator).
    private func tileLabelExtents(_ grid: GridGeometry, _ levels: [(level: Int, style: GridLevelStyle)]) -> (
        extents: (x: Double, y: Double), pixelsPerUnit: Double
    )? {
        guard let spacing = grid.spacing else { return nil }
        let samples = GridText.widestValues(
            type: settings.type, format: settings.labelFormat, unit: settings.labelUnit,
            steps: (spacing.x.step, spacing.y.step))
        var x = 0.0
        var y = 0.0
        let annotated = annotationSamples
        for (_, style) in levels {
            let f = font(style)
            let grow = 2 * labelGrowth(style)
            // Samples, not drawn: their layouts are not kept.
            x = max(x, ([samples.x] + annotated).map { text.sharedExtents($0, font: f).width }.max()! + grow)
            y = max(y, text.sharedExtents(samples.y, font: f).height + grow)
        }
        let perUnit = (settings.type == .latlong ? GridLevels.metresPerDegree : 1) / view.resolution
        return ((x, y), perUnit)
    }

    /// What a line prints where it meets an edge: its label, and for the MGRS and USNG
    /// lines on the 100 km squares' edges (which carry none on the map, where the square
    /// letters name them) their value, `00km`, so an edge's values run on evenly.
    func edgeText(_ line: GridLine) -> String? {
        if let label = line.label { return label }
        guard line.axis == .easting || line.axis == .northing, settings.type == .mgrs || settings.type == .usng
        else { return nil }
        return GridText.mgrs(line.value, step: 100_000, unit: settings.labelUnit)
    }

    /// Line labels where lines cross the edges (or the axes through the centre) of a single image.
    private func edgeLabels(
        _ grid: GridGeometry,
        _ make: (String, Int, GridLabelRank, PlanePoint, GridLine?, Bool, (Double, Double) -> PlanePoint) -> Void
    ) {
        let r = view.globalBounds
        let inset = GridOverlay.edgePadding
        let edges: [GridEdge]
        switch settings.labelPosition {
        case .bottomLeft: edges = [.bottom, .left]
        case .bottomRight: edges = [.bottom, .right]
        case .topLeft: edges = [.top, .left]
        case .topRight: edges = [.top, .right]
        case .allSides: edges = GridEdge.allCases
        case .center, .geographic: edges = []
        }
        func halo(_ level: Int) -> Double {
            (settings.style(level: level).text.halo?.width ?? 0) * view.pixelsPerPoint
        }
        for crossing in grid.edgeCrossings(edges) {
            let line = grid.lines[crossing.lineIndex]
            guard let text = edgeText(line) else { continue }
            let p = crossing.point
            let pad = inset + halo(line.level) + edgeLabelInset
            let origin: ((Double, Double) -> PlanePoint)?
            // Along the top and bottom a label is centred on its line's x, along the sides on its y.
            switch crossing.edge {
            case .bottom? where names(.bottom, line.axis):
                origin = { w, h in PlanePoint(x: p.x - w / 2, y: r.maxY - pad - h) }
            case .top? where names(.top, line.axis):
                origin = { w, _ in PlanePoint(x: p.x - w / 2, y: r.minY + pad) }
            case .left? where names(.left, line.axis):
                origin = { _, h in PlanePoint(x: r.minX + pad, y: p.y - h / 2) }
            case .right? where names(.right, line.axis):
                origin = { w, h in PlanePoint(x: r.maxX - pad - w, y: p.y - h / 2) }
            default:
                origin = nil
            }
            if let origin, let edge = crossing.edge {
                make(text, line.level, line.labelRank, p, line, turned(edge), origin)
            }
        }
        if settings.labelPosition == .center {
            let c = r.center
            for crossing in grid.crossings(horizontalAt: c.y, from: r.minX, to: r.maxX) {
                let line = grid.lines[crossing.lineIndex]
                guard let text = line.label, line.axis.labelsOnHorizontalEdges else { continue }
                let p = crossing.point
                make(text, line.level, line.labelRank, p, line, false) { w, h in
                    PlanePoint(x: p.x - w / 2, y: p.y - h / 2)
                }
            }
            for crossing in grid.crossings(verticalAt: c.x, from: r.minY, to: r.maxY) {
                let line = grid.lines[crossing.lineIndex]
                guard let text = line.label, line.axis.labelsOnVerticalEdges else { continue }
                let p = crossing.point
                make(text, line.level, line.labelRank, p, line, false) { w, h in
                    PlanePoint(x: p.x - w / 2, y: p.y - h / 2)
                }
            }
        }
    }
}
