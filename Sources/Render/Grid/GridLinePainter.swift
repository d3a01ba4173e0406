import CCairo
import Foundation
import Geodesy
import Grids
import MapModel

/// Strokes grid lines in a view's pixels.
///
/// Pieces of one line that meet end to end (an easting line crossing a band edge, chunks of a
/// zone meridian) are joined into one path first: two strokes ending at the same point would
/// leave a faint gap where their anti-aliased ends overlap. Dashes are laid out here rather
/// than by Cairo, restarting at every chunk start: chunks start at fixed points of the line,
/// so the dashes are the same in every tile whatever part of the line a view holds.
struct GridLinePainter {
    let context: CairoContext
    let view: View

    /// A polyline in global pixels with the indices where its chunks start.
    struct Path {
        var points: [PlanePoint]
        var chunkStarts: [Int]
    }

    /// Joins pieces whose end is another's start (exactly: shared vertices are computed once).
    static func join(_ lines: [GridLine]) -> [Path] {
        struct Key: Hashable {
            let x: UInt64, y: UInt64
            init(_ p: PlanePoint) { x = p.x.bitPattern; y = p.y.bitPattern }
        }
        var byStart: [Key: [Int]] = [:]
        var ends = Set<Key>()
        for (i, line) in lines.enumerated() where line.vertices.count >= 2 {
            byStart[Key(line.vertices[0].point), default: []].append(i)
            ends.insert(Key(line.vertices[line.vertices.count - 1].point))
        }
        var used = [Bool](repeating: false, count: lines.count)
        var paths: [Path] = []
        func follow(_ first: Int) {
            var path = Path(points: lines[first].vertices.map(\.point), chunkStarts: lines[first].chunkStarts)
            used[first] = true
            while let last = path.points.last, let next = byStart[Key(last)]?.first(where: { !used[$0] }) {
                used[next] = true
                let offset = path.points.count - 1
                path.chunkStarts += lines[next].chunkStarts.map { $0 + offset }
                path.points += lines[next].vertices.dropFirst().map(\.point)
            }
            paths.append(path)
        }
        // Start from pieces nothing leads into, then whatever is left (closed loops).
        for (i, line) in lines.enumerated() where line.vertices.count >= 2 && !ends.contains(Key(line.vertices[0].point)) {
            if !used[i] { follow(i) }
        }
        for (i, line) in lines.enumerated() where line.vertices.count >= 2 && !used[i] { follow(i) }
        return paths
    }

    /// The dashes of a path: the "on" runs of the pattern, restarted at each chunk start. A
    /// dash that runs into the next chunk, where the pattern restarts "on", continues as one run.
    static func dashes(_ path: Path, pattern: [Double]) -> [[PlanePoint]] {
        let total = pattern.reduce(0, +)
        guard total > 0, pattern.count >= 1 else { return [path.points] }
        var runs: [[PlanePoint]] = []
        var current: [PlanePoint] = []
        let starts = path.chunkStarts + [path.points.count - 1]
        for c in 0..<(starts.count - 1) {
            var index = 0            // position in the pattern
            var left = pattern[0]    // length left in this entry
            var on = true
            if current.isEmpty { current = [path.points[starts[c]]] }
            for i in starts[c]..<starts[c + 1] {
                var a = path.points[i]
                let b = path.points[i + 1]
                var remaining = hypot(b.x - a.x, b.y - a.y)
                while remaining > 0 {
                    let step = Swift.min(left, remaining)
                    let f = step / remaining
                    let p = PlanePoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
                    if on { current.append(p) }
                    a = p
                    remaining -= step
                    left -= step
                    if left <= 1e-9 {
                        if on, current.count >= 2 { runs.append(current) }
                        current = []
                        on.toggle()
                        index = (index + 1) % pattern.count
                        left = pattern[index]
                        if on { current = [a] }
                    }
                }
            }
            // At the chunk's end: an "off" part ends here; an "on" run carries into the next chunk.
            if !on { current = [] }
        }
        if current.count >= 2 { runs.append(current) }
        return runs
    }

    /// Draws the lines of one level with its symbol, sizes in pixels.
    ///
    /// Lines are filled as outlines made here — a quadrilateral per segment, a disc at each
    /// round join — rather than stroked by Cairo. Cairo's stroker leaves out segments beyond
    /// the image and joins what is left, which moves the ends of the edges it makes for the
    /// segments that are seen (so a tile and its metatile would disagree by a level here and
    /// there). Outlines built from each segment's own two ends are the same in every view.
    func stroke(_ lines: [GridLine], symbol: LineSymbol, pixelsPerPoint: Double) {
        let width = symbol.width * pixelsPerPoint
        guard width > 0, symbol.opacity > 0, symbol.color.alpha > 0, !lines.isEmpty else { return }
        context.save()
        context.setColor(symbol.color.withOpacity(symbol.opacity))
        cairo_set_fill_rule(context.pointer, CAIRO_FILL_RULE_WINDING)
        let pattern = symbol.dash.map { $0 * pixelsPerPoint }
        let dashed = !pattern.isEmpty && pattern.contains { $0 > 0 }
        // Cairo's 24.8 fixed point stops at about ±8 million pixels: beyond a million, runs are
        // clipped to the view grown by 100,000 pixels (chunks are short, so this is rare).
        let safeLimit = 1_000_000.0, clipMargin = 100_000.0
        let clipRect = Rect(minX: -clipMargin, minY: -clipMargin,
                            maxX: Double(view.width) + clipMargin, maxY: Double(view.height) + clipMargin)
        // One fill per family of lines that never cross (the eastings, the northings; each
        // boundary alone): Cairo's rasteriser slows down on paths that cross themselves often.
        var families: [[GridLine]] = [lines.filter { $0.axis.labelsOnHorizontalEdges },
                                      lines.filter { $0.axis.labelsOnVerticalEdges }]
        families += lines.filter { $0.axis == .boundary }.map { [$0] }
        for family in families where !family.isEmpty {
            var polygons: [[PlanePoint]] = []
            for path in GridLinePainter.join(family) {
                let runs = dashed ? GridLinePainter.dashes(path, pattern: pattern) : [path.points]
                for run in runs {
                    var bounds = Rect.empty
                    for p in run { bounds.include(x: p.x - view.originX, y: p.y - view.originY) }
                    let far = min(bounds.minX, bounds.minY) < -safeLimit || max(bounds.maxX, bounds.maxY) > safeLimit
                    let pieces = far
                        ? Clipping.clipLine(run.map { (x: $0.x - view.originX, y: $0.y - view.originY) }, to: clipRect)
                            .map { $0.points.map { PlanePoint(x: $0.x + view.originX, y: $0.y + view.originY) } }
                        : [run]
                    for piece in pieces where piece.count >= 2 {
                        polygons += GridLinePainter.outline(piece, halfWidth: width / 2, join: symbol.join, cap: symbol.cap)
                    }
                }
            }
            fill(polygons)
        }
        context.restore()
    }

    /// Tile boundaries in global pixels (every block of 256-pixel tiles, or 512, 1024..., has
    /// its edges on them).
    static let cellSize = 256.0

    /// Fills polygons (global pixels, each wound positively) with the non-zero rule.
    ///
    /// In a block of tiles the polygons are cut along the tile boundaries and each column of
    /// tiles is filled on its own. Cairo's rasteriser decides, row by row, between two ways
    /// of computing coverage depending on every edge in the row, and clips polygons that cross
    /// the image's edge; either would make a tile's pixels depend on what lies beyond it. A
    /// column's pieces are the same in every block that holds its tiles, and pieces above or
    /// below the image simply drop out, so a tile's pixels are the same too. (Cuts fall on
    /// pixel boundaries there, so they leave no seam.)
    func fill(_ polygons: [[PlanePoint]]) {
        guard view.isTileBlock else {
            context.newPath()
            for polygon in polygons { add(polygon) }
            context.fill()
            return
        }
        var columns: [Double: [[PlanePoint]]] = [:]
        let t = GridLinePainter.cellSize
        for q in polygons {
            var box = GridRect.empty
            for p in q { box = box.including(p) }
            let i0 = (box.minX / t).rounded(.down), i1 = (box.maxX / t).rounded(.down)
            let j0 = (box.minY / t).rounded(.down), j1 = (box.maxY / t).rounded(.down)
            if i0 == i1 && j0 == j1 {
                columns[i0, default: []].append(q)
                continue
            }
            for i in stride(from: i0, through: i1, by: 1) {
                for j in stride(from: j0, through: j1, by: 1) {
                    let piece = GridLinePainter.clip(q, minX: i * t, minY: j * t, maxX: (i + 1) * t, maxY: (j + 1) * t)
                    if piece.count >= 3 { columns[i, default: []].append(piece) }
                }
            }
        }
        for (i, pieces) in columns where (i + 1) * t > view.originX && i * t < view.originX + Double(view.width) {
            context.newPath()
            for piece in pieces { add(piece) }
            context.fill()
        }
    }

    private func add(_ polygon: [PlanePoint]) {
        context.moveTo(polygon[0].x - view.originX, polygon[0].y - view.originY)
        for p in polygon.dropFirst() { context.lineTo(p.x - view.originX, p.y - view.originY) }
        context.closePath()
    }

    /// Sutherland–Hodgman against an axis-aligned rectangle.
    static func clip(_ polygon: [PlanePoint], minX: Double, minY: Double, maxX: Double, maxY: Double) -> [PlanePoint] {
        var points = polygon
        for edge in 0..<4 {
            guard let last = points.last else { return [] }
            func inside(_ p: PlanePoint) -> Bool {
                switch edge {
                case 0: return p.x >= minX
                case 1: return p.x <= maxX
                case 2: return p.y >= minY
                default: return p.y <= maxY
                }
            }
            func cross(_ a: PlanePoint, _ b: PlanePoint) -> PlanePoint {
                switch edge {
                case 0, 1:
                    let x = edge == 0 ? minX : maxX
                    return PlanePoint(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
                default:
                    let y = edge == 2 ? minY : maxY
                    return PlanePoint(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
                }
            }
            var output: [PlanePoint] = []
            var previous = last
            for current in points {
                if inside(current) {
                    if !inside(previous) { output.append(cross(previous, current)) }
                    output.append(current)
                } else if inside(previous) {
                    output.append(cross(previous, current))
                }
                previous = current
            }
            points = output
        }
        return points
    }

    /// A disc as a polygon, fine enough to stay within 0.05 px of the circle.
    static func disc(_ c: PlanePoint, radius r: Double) -> [PlanePoint] {
        let n = max(8, Int((Double.pi / acos(max(-1, 1 - 0.05 / max(r, 0.05)))).rounded(.up)))
        return (0..<n).map { k in
            let a = 2 * Double.pi * Double(k) / Double(n)
            return PlanePoint(x: c.x + r * cos(a), y: c.y + r * sin(a))
        }
    }

    /// The outline of a thick polyline (global pixels) as polygons wound the same way: the
    /// line offset by half its width on both sides, mitred at its vertices (grid lines bend
    /// by a fraction of a degree between vertices, so the join style cannot show), split
    /// with a round join where it turns sharply, and capped. Each vertex of the outline
    /// depends only on the line's vertex there and its two neighbours, which every view that
    /// shows it has.
    static func outline(_ line: [PlanePoint], halfWidth h: Double, join: LineJoin, cap: LineCap) -> [[PlanePoint]] {
        // Drop repeated points: they have no direction.
        var points: [PlanePoint] = []
        for p in line where points.last.map({ $0.x != p.x || $0.y != p.y }) ?? true { points.append(p) }
        guard points.count >= 2 else { return [] }
        var polygons: [[PlanePoint]] = []
        func add(_ q: [PlanePoint]) {
            var area = 0.0
            for i in 0..<q.count {
                let a = q[i], b = q[(i + 1) % q.count]
                area += (a.x - q[0].x) * (b.y - q[0].y) - (b.x - q[0].x) * (a.y - q[0].y)
            }
            guard area != 0 else { return }
            polygons.append(area < 0 ? Array(q.reversed()) : q)
        }
        // Unit normals of the segments.
        let normals: [PlanePoint] = (0..<(points.count - 1)).map { i in
            let dx = points[i + 1].x - points[i].x, dy = points[i + 1].y - points[i].y
            let length = (dx * dx + dy * dy).squareRoot()
            return PlanePoint(x: -dy / length, y: dx / length)
        }
        var left: [PlanePoint] = [], right: [PlanePoint] = []
        func start(_ v: PlanePoint, _ n: PlanePoint) {
            left = [PlanePoint(x: v.x + n.x * h, y: v.y + n.y * h)]
            right = [PlanePoint(x: v.x - n.x * h, y: v.y - n.y * h)]
        }
        func finish(_ v: PlanePoint, _ n: PlanePoint) {
            left.append(PlanePoint(x: v.x + n.x * h, y: v.y + n.y * h))
            right.append(PlanePoint(x: v.x - n.x * h, y: v.y - n.y * h))
            add(left + right.reversed())
        }
        start(points[0], normals[0])
        for i in 1..<(points.count - 1) {
            let v = points[i], n0 = normals[i - 1], n1 = normals[i]
            let sum = PlanePoint(x: n0.x + n1.x, y: n0.y + n1.y)
            let sum2 = sum.x * sum.x + sum.y * sum.y
            if sum2 > 1 {
                // Mitre: along the bisector, h / cos(half the turn) out.
                let k = 2 * h / sum2
                left.append(PlanePoint(x: v.x + sum.x * k, y: v.y + sum.y * k))
                right.append(PlanePoint(x: v.x - sum.x * k, y: v.y - sum.y * k))
            } else {
                // A turn of more than 120°: end here and start afresh, rounded.
                finish(v, n0)
                add(disc(v, radius: h))
                start(v, n1)
            }
        }
        finish(points[points.count - 1], normals[normals.count - 1])
        switch cap {
        case .butt:
            break
        case .round:
            add(disc(points[0], radius: h))
            add(disc(points[points.count - 1], radius: h))
        case .square:
            for (end, n, sign) in [(points[0], normals[0], -1.0), (points[points.count - 1], normals[normals.count - 1], 1.0)] {
                // Half a width beyond the end, along the line (the normal turned back a quarter).
                let out = PlanePoint(x: n.y * h * sign, y: -n.x * h * sign)
                add([PlanePoint(x: end.x + n.x * h, y: end.y + n.y * h), PlanePoint(x: end.x + n.x * h + out.x, y: end.y + n.y * h + out.y),
                     PlanePoint(x: end.x - n.x * h + out.x, y: end.y - n.y * h + out.y), PlanePoint(x: end.x - n.x * h, y: end.y - n.y * h)])
            }
        }
        return polygons
    }
}
