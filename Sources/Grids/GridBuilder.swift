import Geodesy

/// The shared state of one generation: the projection, the area and its latitude/longitude
/// bounds, and the lines and labels made so far. The generators for each grid type call
/// `addLine` for every line they find (as pieces, one per grid zone) and `addLineLabel`/`addCellLabel` for labels.
struct GridBuilder<P: GridProjection> {
    let projection: P
    let request: GridRequest
    let levels: [Int]
    /// The area asked for, and the area lines and labels must reach (area + margin).
    let area: GridRect
    let query: GridRect
    /// Latitude/longitude bounds of `query` and of `area`.
    let geoQuery: GeoBox
    let geoArea: GeoBox
    let densifier = CurveDensifier()
    var lines: [GridLine] = []
    var labels: [GridLabel] = []

    init(projection: P, request: GridRequest, levels: [Int], area: GridRect) {
        self.projection = projection
        self.request = request
        self.levels = levels
        self.area = area
        query = area.expanded(by: Swift.max(0, request.margin))
        geoQuery = GeoBox.bounds(of: query, in: projection)
        geoArea = GeoBox.bounds(of: area, in: projection)
    }

    var pixelsPerMetre: Double { projection.pixelsPerMetre }

    /// Lines are cut into chunks at least this many pixels long (a multiple of the finest
    /// step): few enough to densify quickly, short enough that a view makes little beyond itself.
    static var chunkPixels: Double { 256 }

    @inline(__always)
    func vertex(_ p: GeoPosition) -> GridVertex {
        GridVertex(point: projection.project(latitude: p.latitude, longitude: p.longitude), position: p)
    }

    /// A chunk of a line as `addLine` makes it.
    private struct Chunk {
        let piece: Int
        let a: Double, b: Double
        let vertices: [GridVertex]
        let visible: Bool
        /// Whether it follows the previous chunk with no gap.
        let continues: Bool
    }

    /// One piece of a line: a stretch of its parameter within one grid zone, with the
    /// properties its `GridLine`s carry.
    struct Piece {
        var line: GridLine
        var t0: Double
        var t1: Double
    }

    /// Adds the runs of a line that reach the query area. The line is given as pieces in order
    /// of its parameter (pieces that touch share their end point). Each piece is cut into
    /// chunks at multiples of `step` (and at its ends); only chunks near `window` (a parameter
    /// range known to hold everything visible) are made.
    ///
    /// The chunks that reach the area are kept, and so is one chunk on each side of every
    /// stretch of them, even in the next piece. The segments the view shows then always have
    /// the same neighbours, so a stroke joins them the same way in every view: Cairo turns a
    /// polyline into edges whose ends depend on the joins, and those ends (in fixed point) tilt
    /// the edges slightly, far along their length.
    mutating func addLine(_ pieces: [Piece], step: Double, window: ClosedRange<Double>,
                          _ position: (Double) -> GeoPosition) {
        guard step > 0, step.isFinite, window.lowerBound <= window.upperBound else { return }
        let projection = self.projection
        func evaluate(_ t: Double) -> GridVertex {
            let p = position(t)
            return GridVertex(point: projection.project(latitude: p.latitude, longitude: p.longitude), position: p)
        }
        // The chunks that can be visible: those overlapping the window, in order.
        var chunks: [Chunk] = []
        var carried: (t: Double, vertex: GridVertex)?
        func make(_ piece: Int, _ a: Double, _ b: Double, continues: Bool) -> Chunk {
            let va = continues && carried?.t == a ? carried!.vertex : evaluate(a)
            let vb = evaluate(b)
            carried = (b, vb)
            var vertices = [va]
            densifier.densify(from: a, va, to: b, vb, into: &vertices, evaluate)
            var box = GridRect.empty
            for v in vertices { box = box.including(v.point) }
            return Chunk(piece: piece, a: a, b: b, vertices: vertices, visible: box.intersects(query), continues: continues)
        }
        /// The chunk of a piece that holds parameter t (its start when t is on a boundary).
        func bounds(_ piece: Piece, containing k: Double) -> (Double, Double) {
            (Swift.max(piece.t0, k * step), Swift.min(piece.t1, (k + 1) * step))
        }
        for (index, piece) in pieces.enumerated() where piece.t0 < piece.t1 {
            let lo = Swift.max(piece.t0, window.lowerBound), hi = Swift.min(piece.t1, window.upperBound)
            guard lo <= hi else { continue }
            var k = (lo / step).rounded(.down)
            if k * step == lo && lo > piece.t0 { k -= 1 }
            var count = 0
            while k * step <= hi, count < 1_000_000 {
                count += 1
                let (a, b) = bounds(piece, containing: k)
                k += 1
                guard a < b else { continue }
                let previous = chunks.last
                let continues = previous.map { $0.b == a && ($0.piece == index || pieces[$0.piece].t1 == a) } ?? false
                chunks.append(make(index, a, b, continues: continues))
            }
        }
        // Keep the visible chunks and the chunk on each side of every stretch of them, which
        // may lie outside the window or in the next piece.
        var kept: [Chunk] = []
        for (i, chunk) in chunks.enumerated() where chunk.visible {
            let startsStretch = i == 0 || !chunks[i - 1].visible || !chunk.continues
            if startsStretch {
                if i > 0, chunk.continues {
                    if kept.last.map({ $0.b != chunks[i - 1].b }) ?? true { kept.append(chunks[i - 1]) }
                } else if let before = neighbour(before: chunk) {
                    carried = nil
                    kept.append(make(before.piece, before.a, before.b, continues: false))
                }
            }
            if kept.last.map({ $0.b != chunk.b || $0.piece != chunk.piece }) ?? true {
                kept.append(Chunk(piece: chunk.piece, a: chunk.a, b: chunk.b, vertices: chunk.vertices, visible: true,
                                  continues: kept.last.map { $0.b == chunk.a } ?? false))
            }
            let endsStretch = i + 1 == chunks.count || !chunks[i + 1].visible || !chunks[i + 1].continues
            if endsStretch {
                if i + 1 < chunks.count, chunks[i + 1].continues {
                    kept.append(Chunk(piece: chunks[i + 1].piece, a: chunks[i + 1].a, b: chunks[i + 1].b,
                                      vertices: chunks[i + 1].vertices, visible: false, continues: true))
                } else if let after = neighbour(after: chunk) {
                    carried = (chunk.b, chunk.vertices[chunk.vertices.count - 1])
                    kept.append(make(after.piece, after.a, after.b, continues: true))
                }
            }
        }
        /// The chunk just before or after one, in its piece or the touching one.
        func neighbour(before chunk: Chunk) -> (piece: Int, a: Double, b: Double)? {
            let piece = pieces[chunk.piece]
            if chunk.a > piece.t0 {
                let k = ((chunk.a / step).rounded(.down) * step == chunk.a ? chunk.a / step - 1 : (chunk.a / step).rounded(.down))
                let (a, b) = bounds(piece, containing: k)
                return a < b && b == chunk.a ? (chunk.piece, a, b) : nil
            }
            guard chunk.piece > 0, pieces[chunk.piece - 1].t1 == chunk.a, pieces[chunk.piece - 1].t0 < chunk.a else { return nil }
            let prior = pieces[chunk.piece - 1]
            var k = (chunk.a / step).rounded(.down)
            if k * step == chunk.a { k -= 1 }
            let (a, b) = bounds(prior, containing: k)
            return a < b ? (chunk.piece - 1, a, b) : nil
        }
        func neighbour(after chunk: Chunk) -> (piece: Int, a: Double, b: Double)? {
            let piece = pieces[chunk.piece]
            if chunk.b < piece.t1 {
                let (a, b) = bounds(piece, containing: (chunk.b / step).rounded(.down))
                return a < b && a == chunk.b ? (chunk.piece, a, b) : nil
            }
            guard chunk.piece + 1 < pieces.count, pieces[chunk.piece + 1].t0 == chunk.b, pieces[chunk.piece + 1].t1 > chunk.b else { return nil }
            let (a, b) = bounds(pieces[chunk.piece + 1], containing: (chunk.b / step).rounded(.down))
            return a < b ? (chunk.piece + 1, a, b) : nil
        }
        chunks = kept
        var run: GridLine?
        var runPiece = -1
        for chunk in chunks {
            if var current = run, runPiece == chunk.piece, chunk.continues {
                current.chunkStarts.append(current.vertices.count - 1)
                current.vertices += chunk.vertices.dropFirst()
                run = current
            } else {
                if let finished = run { lines.append(finished) }
                var fresh = pieces[chunk.piece].line
                fresh.vertices = chunk.vertices
                fresh.chunkStarts = [0]
                run = fresh
                runPiece = chunk.piece
            }
        }
        if let finished = run { lines.append(finished) }
    }

    /// The parameter values `j·period + offset` within [max(t0, window.lower), min(t1, window.upper)].
    func stops(from t0: Double, to t1: Double, window: ClosedRange<Double>, period: Double, offset: Double) -> [Double] {
        let lo = Swift.max(t0, window.lowerBound), hi = Swift.min(t1, window.upperBound)
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

    /// The centre of the area on the ellipsoid.
    var centrePosition: GeoPosition { projection.unproject(area.center) }

    /// A label with the line's value at a fixed point along it.
    mutating func addLineLabel(_ line: GridLine, at position: GeoPosition) {
        guard request.labels, let text = line.label else { return }
        let p = projection.project(latitude: position.latitude, longitude: position.longitude)
        guard query.contains(p) else { return }
        labels.append(GridLabel(kind: .line, level: line.level, text: text, anchor: p, position: position,
                                axis: line.axis, zone: line.zone, rank: line.labelRank))
    }

    /// The plane bounds of a latitude/longitude box (edges sampled).
    func planeBounds(_ box: GeoBox) -> GridRect {
        var r = GridRect.empty
        let n = 8
        for i in 0...n {
            let f = Double(i) / Double(n)
            let lat = box.south + f * (box.north - box.south), lon = box.west + f * (box.east - box.west)
            for (a, b) in [(box.south, lon), (box.north, lon), (lat, box.west), (lat, box.east)] {
                r = r.including(projection.project(latitude: a, longitude: b))
            }
        }
        return r
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
        guard query.contains(anchor) else { return }
        labels.append(GridLabel(kind: .cell, level: level, text: text, anchor: anchor, position: projection.unproject(anchor),
                                axis: nil, zone: zone, rank: rank, room: room))
    }

    /// A label naming a cell given as polygons in the plane (a 100 km square clipped to its
    /// zone): at their area centroid, or that of their part in the area.
    mutating func addCellLabel(_ text: String, level: Int, polygons: [[PlanePoint]], zone: String?, rank: GridLabelRank) {
        guard request.labels else { return }
        var parts = polygons
        if request.cellAnchor == .visiblePart {
            parts = parts.map { PolygonMath.clip($0, to: area) }
        }
        guard let (anchor, room) = PolygonMath.labelPoint(parts), query.contains(anchor) else { return }
        labels.append(GridLabel(kind: .cell, level: level, text: text, anchor: anchor, position: projection.unproject(anchor),
                                axis: nil, zone: zone, rank: rank, room: room))
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
