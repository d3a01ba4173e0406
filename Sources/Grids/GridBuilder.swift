import Geodesy

/// The shared state of one generation: the projection, the area and its latitude/longitude
/// bounds, and the lines and labels made so far. The generators for each grid type call
/// `addLine` for every line they find (as pieces, one per grid zone) and `addLineLabel`/`addCellLabel` for labels.
struct GridBuilder<P: GridProjection> {
    let projection: P
    let request: GridRequest
    /// The levels and line values drawn.
    let plan: GridPlan
    /// The area asked for, the area lines must reach (area + margin) and the area label
    /// anchors must reach (area + label margin).
    let area: Rect
    let query: Rect
    let labelQuery: Rect
    /// Latitude/longitude bounds of the larger of `query` and `labelQuery`, and of `area`
    /// (`geoArea` only when cell labels sit in their visible part: empty otherwise).
    let geoQuery: GeoBox
    let geoArea: GeoBox
    let densifier = CurveDensifier()
    /// Line ends found by earlier generations, when the caller keeps them.
    let cache: GridCache?
    /// `projection.chunkCacheScale`, asked once: a view's projection answered it through
    /// copies of its plane for every chunk.
    let chunkScale: Double?
    var lines: [GridLine] = []
    var labels: [GridLabel] = []

    init(projection: P, request: GridRequest, plan: GridPlan, area: Rect, cache: GridCache? = nil) {
        self.projection = projection
        self.cache = cache
        chunkScale = cache == nil ? nil : projection.chunkCacheScale
        self.request = request
        self.plan = plan
        self.area = area
        let margin = Swift.max(0, request.margin)
        let labelMargin = Swift.max(0, request.labelMargin ?? request.margin)
        query = area.expanded(by: margin)
        labelQuery = area.expanded(by: labelMargin)
        geoQuery = GeoBox.bounds(of: area.expanded(by: Swift.max(margin, labelMargin)), in: projection)
        // Only labels placed in the visible part of their cell read it; tiles (a fixed anchor)
        // never do, and each bound is over a hundred inverse projections.
        geoArea =
            request.cellAnchor == .visiblePart
            ? GeoBox.bounds(of: area, in: projection) : GeoBox(south: 0, north: 0, west: 0, east: 0)
    }

    var pixelsPerMetre: Double { projection.pixelsPerMetre }

    /// Lines are cut into chunks at least this many pixels long (a multiple of the finest
    /// step): few enough to densify quickly, short enough that a view makes little beyond itself.
    static var chunkPixels: Double { 256 }

    @inline(__always)
    func vertex(_ p: GeoPosition) -> GridVertex {
        GridVertex(point: projection.project(latitude: p.latitude, longitude: p.longitude), position: p)
    }

    /// Outside the generic builder (it does not depend on the projection): arrays of a type
    /// nested in a generic one went through metadata lookups and unspecialised calls.
    typealias Piece = GridLinePiece

    /// Adds the runs of a line that reach the query area. The line is given as pieces in order
    /// of its parameter. Each piece is cut into chunks at multiples of `step` (and at its
    /// ends), and only the chunks that overlap `window` (a parameter range known to hold
    /// everything visible) are made; each run of consecutive chunks that reach the query
    /// area becomes a `GridLine`. A chunk depends on its two ends alone, so every view that
    /// shows it makes the same vertices.
    mutating func addLine(
        _ pieces: [Piece], step: Double, window: ClosedRange<Double>,
        chunkLine: (zone: Int, axis: GridAxis, value: Double)? = nil,
        _ position: (Double) -> GeoPosition
    ) {
        guard request.lines, step > 0, step.isFinite, window.lowerBound <= window.upperBound else { return }
        let projection = self.projection
        // The last vertex made: the next chunk starts there when it starts at the same t on
        // the same side of 180° (all pieces are stretches of one curve).
        var carried: (t: Double, westOf180: Bool, vertex: GridVertex)?
        // Each piece borrowed where it lies (`for piece in pieces` copied it, line and all).
        pieces.withUnsafeBufferPointer { pieces in
            for index in pieces.indices where pieces[index].t0 < pieces[index].t1 {
                let (t0, t1, west) = (pieces[index].t0, pieces[index].t1, pieces[index].westOf180)
                func evaluate(_ t: Double) -> GridVertex {
                    var p = position(t)
                    if west && p.longitude == 180 { p.longitude = -180 }
                    return GridVertex(
                        point: projection.project(latitude: p.latitude, longitude: p.longitude), position: p)
                }
                let lo = Swift.max(t0, window.lowerBound)
                let hi = Swift.min(t1, window.upperBound)
                guard lo <= hi else { continue }
                var k = (lo / step).rounded(.down)
                if k * step == lo && lo > t0 { k -= 1 }
                var run: GridLine?
                var count = 0
                while k * step <= hi, count < 1_000_000 {
                    count += 1
                    let a = Swift.max(t0, k * step)
                    let b = Swift.min(t1, (k + 1) * step)
                    k += 1
                    guard a < b else { continue }
                    // A chunk depends on its ends alone: the vertices are the same bits whether
                    // made here, carried from the chunk before or kept from another view.
                    func make() -> [GridVertex] {
                        let start =
                            carried.map { $0.t == a && $0.westOf180 == west } == true ? carried!.vertex : evaluate(a)
                        var vertices = [start]
                        densifier.densify(from: a, start, to: b, evaluate(b), into: &vertices, evaluate)
                        return vertices
                    }
                    let vertices: [GridVertex]
                    if let cache, let line = chunkLine, let scale = chunkScale {
                        vertices = cache.chunk(
                            .init(
                                zone: line.zone, axis: line.axis, value: line.value, from: a, to: b, westOf180: west,
                                scale: scale), make)
                    } else {
                        vertices = make()
                    }
                    carried = (b, west, vertices[vertices.count - 1])
                    var box = Rect.empty
                    for v in vertices { box = box.including(v.point) }
                    guard box.intersects(query) else {
                        if let finished = run { lines.append(finished) }
                        run = nil
                        continue
                    }
                    if run != nil {
                        // In place: a copy taken out of the optional and put back shared the
                        // vertices with it, so every chunk copied the whole run before appending.
                        run!.chunkStarts.append(run!.vertices.count - 1)
                        run!.vertices += vertices.dropFirst()
                    } else {
                        var fresh = pieces[index].line
                        fresh.vertices = vertices
                        fresh.chunkStarts = [0]
                        run = fresh
                    }
                }
                if let finished = run { lines.append(finished) }
            }
        }
    }

    /// The parameter values `j·period + offset` within [max(t0, window.lower), min(t1, window.upper)].
    func stops(from t0: Double, to t1: Double, window: ClosedRange<Double>, period: Double, offset: Double) -> [Double]
    {
        let lo = Swift.max(t0, window.lowerBound)
        let hi = Swift.min(t1, window.upperBound)
        guard lo <= hi, period > 0 else { return [] }
        var out: [Double] = []
        var j = ((lo - offset) / period).rounded(.down)
        while j * period + offset <= hi, out.count < 100_000 {
            let t = j * period + offset
            if t >= lo { out.append(t) }
            j += 1
        }
        return out
    }

    /// Where the repeating line labels go along a line: at `j·period + offset` of its parameter.
    /// For tiles the offset is half a step (labels in the middle of the finest cells, the same
    /// in every tile). A single image shifts the repeat so that one stop falls in the middle
    /// of the finest cell nearest its centre (`centre`, the centre's parameter), so even a
    /// small image shows its lines' labels.
    func labelOffset(step: Double, centre: Double) -> Double {
        guard request.cellAnchor == .visiblePart, centre.isFinite else { return step / 2 }
        return ((centre - step / 2) / step).rounded() * step + step / 2
    }

    /// The easting and signed northing ranges of the query area in a UTM zone's
    /// coordinates: its edges sampled (a zone's coordinates are extreme on the edges of any
    /// rectangle of a conformal plane).
    func zoneRanges(_ frame: UTMZoneFrame) -> (easting: ClosedRange<Double>, northing: ClosedRange<Double>)? {
        let rect = area.expanded(by: Swift.max(query.maxX - area.maxX, labelQuery.maxX - area.maxX))
        var e0 = Double.infinity
        var e1 = -Double.infinity
        var n0 = Double.infinity
        var n1 = -Double.infinity
        for g in rect.edgePositions(in: projection) {
            let c = frame.coordinates(latitude: g.latitude, longitude: g.longitude)
            e0 = Swift.min(e0, c.easting)
            e1 = Swift.max(e1, c.easting)
            n0 = Swift.min(n0, c.northing)
            n1 = Swift.max(n1, c.northing)
        }
        guard e0 <= e1, n0 <= n1 else { return nil }
        return (e0...e1, n0...n1)
    }

    /// The centre of the area on the ellipsoid.
    var centrePosition: GeoPosition { projection.unproject(area.center) }

    /// The centre of the part of the area that `boxes` (a zone's cells) cover, where a
    /// single image places its repeating labels from: the area's own centre can lie outside
    /// the zone (on its boundary, or across it), and labels placed from there would miss
    /// the zone's part of the view. The area's centre when nothing is covered, and for tiles.
    func centrePosition(within boxes: [GeoBox]) -> GeoPosition {
        guard request.cellAnchor == .visiblePart else { return centrePosition }
        var covered = Rect.empty
        for box in boxes {
            let part = box.intersection(geoArea)
            guard !part.isEmpty else { continue }
            let r = planeBounds(part).intersection(area)
            if !r.isEmpty { covered = covered.union(r) }
        }
        return covered.isEmpty ? centrePosition : projection.unproject(covered.center)
    }

    /// A label with the line's value at a fixed point along it.
    mutating func addLineLabel(_ line: GridLine, at position: GeoPosition) {
        guard request.labels, let text = line.label else { return }
        let p = projection.project(latitude: position.latitude, longitude: position.longitude)
        guard labelQuery.contains(p) else { return }
        // Made in the append: a label made, changed and appended was copied and destroyed.
        labels.append(
            GridLabel(
                kind: .line, level: line.level, text: text, anchor: p, position: position,
                axis: line.axis, zone: line.zone, rank: line.labelRank, lineValue: line.value))
    }

    /// The plane bounds of a latitude/longitude box (edges sampled).
    func planeBounds(_ box: GeoBox) -> Rect {
        box.rect.boundsOfEdges(steps: 8) { projection.project(latitude: $0.y, longitude: $0.x) }
    }

    /// A label naming a cell (zone, band, UPS cap) that is a latitude/longitude box: at the
    /// centre of the cell within the projection's latitudes, or of its part in the area.
    mutating func addCellLabel(_ text: String, level: Int, cell: GeoBox, zone: String?, rank: GridLabelRank) {
        guard request.labels else { return }
        let range = projection.latitudeRange
        let shown = cell.intersection(GeoBox(south: range.lowerBound, north: range.upperBound, west: -180, east: 180))
        guard !shown.isEmpty, shown.intersects(geoQuery) else { return }
        var room = planeBounds(shown)
        if request.cellAnchor == .visiblePart {
            let part = shown.intersection(geoArea)
            guard !part.isEmpty else { return }
            room = planeBounds(part).intersection(area)
            guard !room.isEmpty else { return }
        }
        let anchor = room.center
        guard labelQuery.contains(anchor) else { return }
        labels.append(
            GridLabel(
                kind: .cell, level: level, text: text, anchor: anchor, position: projection.unproject(anchor),
                axis: nil, zone: zone, rank: rank, room: room))
    }

    /// A label naming a cell given as polygons in the plane (a 100 km square clipped to its
    /// zone): at their area centroid, or that of their part in the area.
    mutating func addCellLabel(_ text: String, level: Int, polygons: [[PlanePoint]], zone: String?, rank: GridLabelRank)
    {
        guard request.labels else { return }
        var parts = polygons
        if request.cellAnchor == .visiblePart {
            parts = parts.map { PlaneClipping.clipRing($0, to: area) }
        }
        guard let (anchor, room) = PolygonMath.labelPoint(parts), labelQuery.contains(anchor) else { return }
        labels.append(
            GridLabel(
                kind: .cell, level: level, text: text, anchor: anchor, position: projection.unproject(anchor),
                axis: nil, zone: zone, rank: rank, room: room))
    }

    /// For UTM and UPS lines in metres: the finest line spacing, and the chunk length and
    /// label period (multiples of it, fixed per resolution so every view agrees).
    func metreSteps() -> (finest: Double, chunk: Double, period: Double) {
        let finest = Double(Swift.min(plan.x.step, plan.y.step))
        return (
            finest, Self.niceMultiple(of: finest, atLeast: Self.chunkPixels / pixelsPerMetre),
            Self.niceMultiple(of: finest, atLeast: request.labelRepeat / pixelsPerMetre)
        )
    }

    /// The label of a UTM, MGRS or USNG line of a level: UTM values in full, MGRS and USNG
    /// values within their square (in kilometres or metres by the level's step, or the
    /// user's interval for lines of no level); none for MGRS and USNG 100 km lines, which
    /// the square letters name.
    ///
    /// None without labels: nothing reads the text then (a metatile's lines, whose labels come
    /// from the label regions), and formatting it for every line of every metatile cost some
    /// 900 instructions a line.
    func lineText(_ metres: Double, axis: GridAxis, level: Int, series: LineSeries) -> String? {
        guard request.labels else { return nil }
        let step = series.levels.first { $0.level == level }.map { Double($0.step) } ?? Double(series.step)
        return GridText.utmFamilyLine(metres, axis: axis, type: request.type, step: step, unit: request.labelUnit)
    }

    /// The smallest `base × n`, n in 1, 2, 5, 10, 20, 50..., that is at least `minimum`.
    static func niceMultiple(of base: Double, atLeast minimum: Double) -> Double {
        var n = 1.0
        while base * n < minimum, n < 1e12 {
            let digits = n / pow10(n)
            n = digits == 1 ? n * 2 : digits == 2 ? n * 2.5 : n * 2
        }
        return base * n
    }

    private static func pow10(_ n: Double) -> Double {
        var p = 1.0
        while p * 10 <= n { p *= 10 }
        return p
    }
}

/// One piece of a line: a stretch of its parameter within one grid zone, with the properties
/// its `GridLine`s carry.
struct GridLinePiece {
    var line: GridLine
    var t0: Double
    var t1: Double
    /// The piece lies west of the 180° meridian (a UPS zone A or Y line that ends on it): a
    /// position there at +180° is drawn at -180°, on this piece's side of the map.
    var westOf180 = false
}
