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

    /// Strokes the lines of one level with its symbol, sizes in pixels.
    func stroke(_ lines: [GridLine], symbol: LineSymbol, pixelsPerPoint: Double) {
        let width = symbol.width * pixelsPerPoint
        guard width > 0, symbol.opacity > 0, symbol.color.alpha > 0, !lines.isEmpty else { return }
        context.save()
        context.setColor(symbol.color.withOpacity(symbol.opacity))
        context.setLineWidth(width)
        context.setLineCap(symbol.cap)
        context.setLineJoin(symbol.join)
        context.setDash([], offset: 0)
        let pattern = symbol.dash.map { $0 * pixelsPerPoint }
        let dashed = !pattern.isEmpty && pattern.contains { $0 > 0 }
        let safe = PathBuilder(view: view)
        // One stroke per family of lines that never cross (the eastings, the northings; each
        // boundary alone): Cairo's stroker gets slow on paths that cross themselves many times.
        var families: [[GridLine]] = [lines.filter { $0.axis.labelsOnHorizontalEdges },
                                      lines.filter { $0.axis.labelsOnVerticalEdges }]
        families += lines.filter { $0.axis == .boundary }.map { [$0] }
        for family in families where !family.isEmpty {
            context.newPath()
            for path in GridLinePainter.join(family) {
                let runs = dashed ? GridLinePainter.dashes(path, pattern: pattern) : [path.points]
                for run in runs {
                    let local = run.map { (x: $0.x - view.originX, y: $0.y - view.originY) }
                    var bounds = Rect.empty
                    for p in local { bounds.include(x: p.x, y: p.y) }
                    // Cairo's fixed-point coordinates cannot reach millions of pixels: clip far geometry.
                    let far = min(bounds.minX, bounds.minY) < -PathBuilder.safeLimit || max(bounds.maxX, bounds.maxY) > PathBuilder.safeLimit
                    let pieces = far ? Clipping.clipLine(local, to: safe.clipRect).map(\.points) : [local]
                    for piece in pieces where piece.count >= 2 {
                        context.moveTo(piece[0].x, piece[0].y)
                        for p in piece.dropFirst() { context.lineTo(p.x, p.y) }
                    }
                }
            }
            context.stroke()
        }
        context.restore()
    }
}
