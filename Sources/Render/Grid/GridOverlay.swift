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

    /// The levels drawn in this view and their styles.
    func levels() -> [(level: Int, style: GridLevelStyle)] {
        GridLevels.automatic(
            for: settings.type, format: settings.labelFormat, pixelsPerMetre: 1 / view.resolution,
            minSpacing: settings.minSpacing * view.pixelsPerPoint
        )
        .map { ($0, settings.style(level: $0)) }
        .filter { $0.style.visible }
    }

    func font(_ style: GridLevelStyle) -> FontSpec {
        FontSpec(
            family: style.text.font, bold: style.text.bold, italic: false,
            sizePixels: style.text.size * view.pixelsPerPoint)
    }

    /// How far a label's box can reach from its anchor: the widest label text at the largest size.
    func labelReach(_ levels: [(level: Int, style: GridLevelStyle)]) -> Double {
        let samples = ["179°59'59\"W", "179.9999°W", "10000000mN", "00000m", "UPS N", "60X"]
        var reach = 0.0
        for (_, style) in levels {
            let f = font(style)
            for sample in samples {
                let e = text.layout(sample, font: f).extents
                reach = max(reach, max(e.width, e.height) + 2 * (style.text.halo?.width ?? 0) * view.pixelsPerPoint + 4)
            }
        }
        return reach
    }

    /// The grid for this view: lines (and label anchors) generated a little beyond it.
    /// Without `labels`, only the lines (and the edge crossings) are generated.
    func geometry(
        _ levels: [(level: Int, style: GridLevelStyle)], cache: GridCache? = nil, labels: Bool = true
    ) -> GridGeometry? {
        var request = GridRequest(type: settings.type)
        request.levels = levels.map(\.level)
        request.labelFormat = settings.labelFormat
        request.labelUnit = settings.labelUnit
        request.labels = labels && settings.labelsVisible
        request.labelRepeat = GridOverlay.labelRepeat * view.pixelsPerPoint
        request.cellAnchor = view.isTileBlock ? .fixed : .visiblePart
        let widest = levels.map { $0.style.line.width }.max() ?? 0
        request.margin = widest * view.pixelsPerPoint + 2
        // Tiles need every label that can overlap one touching the view: two reaches out.
        // (Kept when tiles leave their labels to `GridLabelRegions`: the lines are generated
        // over the same area as they always were, and draw the same pixels.)
        if view.isTileBlock && settings.labelsVisible { request.labelMargin = 2 * labelReach(levels) }
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
        let lines = GridLinePainter(
            levels.reversed().map { level, style in
                (grid.lines.filter { $0.level == level }, style.line)
            }, pixelsPerPoint: view.pixelsPerPoint)
        return GridDrawing(view: view, lines: lines, raster: raster, labels: labelled ? placedLabels(grid, levels) : [])
    }

    /// The labels this view keeps, without the lines.
    func labels(cache: GridCache?) -> [GridLabelCandidate] {
        let levels = levels()
        guard settings.labelsVisible, !levels.isEmpty, let grid = geometry(levels, cache: cache) else { return [] }
        return placedLabels(grid, levels)
    }

    /// The labels drawn, in drawing order.
    func placedLabels(_ grid: GridGeometry, _ levels: [(level: Int, style: GridLevelStyle)]) -> [GridLabelCandidate] {
        let styles = Dictionary(uniqueKeysWithValues: levels.map { ($0.level, $0.style) })
        let geographic = view.isTileBlock || settings.labelPosition == .geographic
        var candidates: [GridLabelCandidate] = []

        /// A candidate whose text box has its top-left corner at `origin(width, height)`.
        func make(
            _ text: String, level: Int, rank: GridLabelRank, anchor: PlanePoint,
            room: Rect? = nil, _ origin: (Double, Double) -> PlanePoint
        ) {
            guard let style = styles[level] else { return }
            let f = font(style)
            guard f.sizePixels >= LabelSpace.minimumTextPixels else { return }
            let extents = self.text.layout(text, font: f).extents
            if let room, level >= 1, extents.width > room.width || extents.height > room.height { return }
            let halo = style.text.halo.map { (color: $0.color, width: $0.width * view.pixelsPerPoint) }
            let grow = halo?.width ?? 0
            // Text on whole pixels of the image: crisp, and the same in every tile (tile
            // origins are whole, so these are whole global pixels too).
            let unrounded = view.transform.image(global: origin(extents.width, extents.height))
            let o = view.transform.global(image: PlanePoint(x: unrounded.x.rounded(), y: unrounded.y.rounded()))
            candidates.append(
                GridLabelCandidate(
                    text: text, font: f, color: style.text.color, halo: halo, corner: o,
                    box: Rect(
                        minX: o.x - grow, minY: o.y - grow, maxX: o.x + extents.width + grow,
                        maxY: o.y + extents.height + grow),
                    rank: rank, anchor: anchor))
        }

        for label in grid.labels where label.kind == .cell || geographic {
            make(label.text, level: label.level, rank: label.rank, anchor: label.anchor, room: label.room) { w, h in
                PlanePoint(x: label.anchor.x - w / 2, y: label.anchor.y - h / 2)
            }
        }
        if !geographic {
            edgeLabels(grid, make)
        }
        if view.isTileBlock { return GridLabelPlacer.placeLocally(candidates) }
        return GridLabelPlacer.placeGreedy(candidates, within: view.globalBounds)
    }

    /// Line labels where lines cross the edges (or the axes through the centre) of a single image.
    private func edgeLabels(
        _ grid: GridGeometry,
        _ make: (String, Int, GridLabelRank, PlanePoint, Rect?, (Double, Double) -> PlanePoint) -> Void
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
            guard let text = line.label else { continue }
            let p = crossing.point
            let pad = inset + halo(line.level)
            switch crossing.edge {
            case .bottom? where line.axis.labelsOnHorizontalEdges:
                make(text, line.level, line.labelRank, p, nil) { w, h in PlanePoint(x: p.x - w / 2, y: r.maxY - pad - h)
                }
            case .top? where line.axis.labelsOnHorizontalEdges:
                make(text, line.level, line.labelRank, p, nil) { w, _ in PlanePoint(x: p.x - w / 2, y: r.minY + pad) }
            case .left? where line.axis.labelsOnVerticalEdges:
                make(text, line.level, line.labelRank, p, nil) { _, h in PlanePoint(x: r.minX + pad, y: p.y - h / 2) }
            case .right? where line.axis.labelsOnVerticalEdges:
                make(text, line.level, line.labelRank, p, nil) { w, h in PlanePoint(x: r.maxX - pad - w, y: p.y - h / 2)
                }
            default:
                break
            }
        }
        if settings.labelPosition == .center {
            let c = r.center
            for crossing in grid.crossings(horizontalAt: c.y, from: r.minX, to: r.maxX) {
                let line = grid.lines[crossing.lineIndex]
                guard let text = line.label, line.axis.labelsOnHorizontalEdges else { continue }
                let p = crossing.point
                make(text, line.level, line.labelRank, p, nil) { w, h in PlanePoint(x: p.x - w / 2, y: p.y - h / 2) }
            }
            for crossing in grid.crossings(verticalAt: c.x, from: r.minY, to: r.maxY) {
                let line = grid.lines[crossing.lineIndex]
                guard let text = line.label, line.axis.labelsOnVerticalEdges else { continue }
                let p = crossing.point
                make(text, line.level, line.labelRank, p, nil) { w, h in PlanePoint(x: p.x - w / 2, y: p.y - h / 2) }
            }
        }
    }
}
