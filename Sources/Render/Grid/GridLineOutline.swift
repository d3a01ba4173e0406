import Foundation
import Geodesy
import MapModel

/// The geometry between grid lines and pixels: pieces joined into polylines, dashes laid out
/// along them, and a polyline's outline as polygons to fill. All in global pixels, and each
/// result depends only on the polyline given, so a tile and its block make the same shapes.
enum GridLineOutline {
    /// Joins paths whose end is another's start (exactly: shared vertices are computed once).
    static func join(_ paths: [GridLinePainter.Path]) -> [GridLinePainter.Path] {
        guard paths.count > 1 else { return paths }
        return paths.count <= maxScanned ? joinByScanning(paths) : joinByHashing(paths)
    }

    /// `join` with the ends and starts in hashed tables.
    static func joinByHashing(_ paths: [GridLinePainter.Path]) -> [GridLinePainter.Path] {
        struct Key: Hashable {
            let x: UInt64, y: UInt64
            init(_ p: PlanePoint) {
                x = p.x.bitPattern
                y = p.y.bitPattern
            }
        }
        var byStart: [Key: [Int]] = [:]
        var ends = Set<Key>()
        for (i, path) in paths.enumerated() {
            byStart[Key(path.points[0]), default: []].append(i)
            ends.insert(Key(path.points[path.points.count - 1]))
        }
        var used = [Bool](repeating: false, count: paths.count)
        var joined: [GridLinePainter.Path] = []
        func follow(_ first: Int) {
            var path = paths[first]
            used[first] = true
            while let last = path.points.last, let next = byStart[Key(last)]?.first(where: { !used[$0] }) {
                used[next] = true
                let offset = path.points.count - 1
                path.chunkStarts += paths[next].chunkStarts.map { $0 + offset }
                path.points += paths[next].points.dropFirst()
            }
            joined.append(path)
        }
        // Start from paths nothing leads into, then whatever is left (closed loops).
        for (i, path) in paths.enumerated() where !used[i] && !ends.contains(Key(path.points[0])) { follow(i) }
        for i in paths.indices where !used[i] { follow(i) }
        return joined
    }

    /// Up to this many paths are joined by comparing ends with starts directly: a tile's
    /// region holds a few dozen at most, and hashing every end and start cost more than the
    /// comparisons (about half of `GridLinePainter.runs`).
    static let maxScanned = 64

    /// `join` by comparing points directly; the same paths in the same order (points are
    /// compared by their bits, as `join`'s keys are).
    static func joinByScanning(_ paths: [GridLinePainter.Path]) -> [GridLinePainter.Path] {
        @inline(__always) func same(_ a: PlanePoint, _ b: PlanePoint) -> Bool {
            a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
        }
        let starts = paths.map { $0.points[0] }
        let ends = paths.map { $0.points[$0.points.count - 1] }
        var used = [Bool](repeating: false, count: paths.count)
        var joined: [GridLinePainter.Path] = []
        func follow(_ first: Int) {
            var path = paths[first]
            used[first] = true
            var last = ends[first]
            // The first unused path that starts where this one ends, as `join`'s lists (in
            // index order) give it.
            while let next = starts.indices.first(where: { !used[$0] && same(starts[$0], last) }) {
                used[next] = true
                let offset = path.points.count - 1
                path.chunkStarts += paths[next].chunkStarts.map { $0 + offset }
                path.points += paths[next].points.dropFirst()
                last = ends[next]
            }
            joined.append(path)
        }
        for i in paths.indices where !used[i] && !ends.contains(where: { same($0, starts[i]) }) { follow(i) }
        for i in paths.indices where !used[i] { follow(i) }
        return joined
    }

    /// The dashes of a path: the "on" runs of the pattern, restarted at each chunk start. A
    /// dash that runs into the next chunk, where the pattern restarts "on", continues as one run.
    static func dashes(_ path: GridLinePainter.Path, pattern: [Double]) -> [[PlanePoint]] {
        var runs: [[PlanePoint]] = []
        var current: [PlanePoint] = []
        let starts = path.chunkStarts + [path.points.count - 1]
        for c in 0..<(starts.count - 1) {
            var index = 0  // position in the pattern
            var left = pattern[0]  // length left in this entry
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

    /// The outline of a thick polyline as polygons whose union is the stroke: the line offset
    /// by half its width on both sides, mitred at its vertices (grid lines bend by a fraction
    /// of a degree between vertices, so the join style cannot show), split with a round join
    /// where it turns by more than 120°, and capped.
    static func polygons(_ line: [PlanePoint], halfWidth h: Double, cap: LineCap) -> [[PlanePoint]] {
        var scratch = Scratch()
        return polygons(line, halfWidth: h, cap: cap, scratch: &scratch)
    }

    /// The working arrays of `polygons`, kept by a caller that outlines many lines in turn (a
    /// metatile's grid, tile by tile): made afresh, they were four allocations an outline. A
    /// value passed `inout`, not a class: a class's arrays are checked for exclusive access
    /// at every use, which cost more than the allocations saved.
    struct Scratch {
        var points: [PlanePoint] = []
        var normals: [PlanePoint] = []
        var left: [PlanePoint] = []
        var right: [PlanePoint] = []
        /// The outline made (`outline(_:halfWidth:cap:into:)`): its polygons one after another,
        /// and where each ends.
        var outline: [PlanePoint] = []
        var ends: [Int] = []
    }

    /// `polygons(_:halfWidth:cap:)` with its working arrays in `scratch` (emptied before
    /// use, their room kept).
    static func polygons(
        _ line: [PlanePoint], halfWidth h: Double, cap: LineCap, scratch: inout Scratch
    ) -> [[PlanePoint]] {
        outline(line, halfWidth: h, cap: cap, into: &scratch)
        var start = 0
        return scratch.ends.map { end in
            defer { start = end }
            return Array(scratch.outline[start..<end])
        }
    }

    /// The polygons of `polygons(_:halfWidth:cap:)` one after another in `scratch.outline`,
    /// each ending at the next of `scratch.ends`: what the raster fills, without an array a
    /// polygon (and one of them) made and freed for every run of every tile.
    static func outline(_ line: [PlanePoint], halfWidth h: Double, cap: LineCap, into scratch: inout Scratch) {
        scratch.points.removeAll(keepingCapacity: true)
        scratch.points.reserveCapacity(line.count)
        for p in line { appendPoint(p, to: &scratch) }
        outlineOfPoints(halfWidth: h, cap: cap, into: &scratch)
    }

    /// Adds a polyline's point to `scratch.points` unless it repeats the last one (repeated
    /// points have no direction): what `outline` keeps of its line, for a caller that gives
    /// the points one by one (`GridLinePainter.outlines`).
    @inline(__always)
    static func appendPoint(_ p: PlanePoint, to scratch: inout Scratch) {
        if let last = scratch.points.last, last.x == p.x, last.y == p.y { return }
        scratch.points.append(p)
    }

    /// `outline(_:halfWidth:cap:into:)` of the polyline already in `scratch.points` (repeated
    /// points dropped, `appendPoint`).
    static func outlineOfPoints(halfWidth h: Double, cap: LineCap, into scratch: inout Scratch) {
        scratch.outline.removeAll(keepingCapacity: true)
        scratch.ends.removeAll(keepingCapacity: true)
        guard scratch.points.count >= 2 else { return }
        // Unit normals of the segments.
        scratch.normals.removeAll(keepingCapacity: true)
        scratch.normals.reserveCapacity(scratch.points.count - 1)
        for i in 0..<(scratch.points.count - 1) {
            let dx = scratch.points[i + 1].x - scratch.points[i].x
            let dy = scratch.points[i + 1].y - scratch.points[i].y
            let length = (dx * dx + dy * dy).squareRoot()
            scratch.normals.append(PlanePoint(x: -dy / length, y: dx / length))
        }
        func start(_ v: PlanePoint, _ n: PlanePoint) {
            // Room for every vertex at once: grown point by point, each side was copied as it grew.
            scratch.left.removeAll(keepingCapacity: true)
            scratch.left.reserveCapacity(scratch.points.count)
            scratch.left.append(PlanePoint(x: v.x + n.x * h, y: v.y + n.y * h))
            scratch.right.removeAll(keepingCapacity: true)
            scratch.right.reserveCapacity(scratch.points.count)
            scratch.right.append(PlanePoint(x: v.x - n.x * h, y: v.y - n.y * h))
        }
        func finish(_ v: PlanePoint, _ n: PlanePoint) {
            scratch.left.append(PlanePoint(x: v.x + n.x * h, y: v.y + n.y * h))
            scratch.right.append(PlanePoint(x: v.x - n.x * h, y: v.y - n.y * h))
            // The left side, then the right one backwards (`left + right.reversed()` made a
            // reversed copy and grew the sum twice).
            scratch.outline.append(contentsOf: scratch.left)
            var i = scratch.right.count
            while i > 0 {
                i &-= 1
                scratch.outline.append(scratch.right[i])
            }
            scratch.ends.append(scratch.outline.count)
        }
        start(scratch.points[0], scratch.normals[0])
        for i in 1..<(scratch.points.count - 1) {
            let v = scratch.points[i]
            let n0 = scratch.normals[i - 1]
            let n1 = scratch.normals[i]
            let sum = PlanePoint(x: n0.x + n1.x, y: n0.y + n1.y)
            let sum2 = sum.x * sum.x + sum.y * sum.y
            if sum2 > 1 {
                // Mitre: along the bisector, h / cos(half the turn) out.
                let k = 2 * h / sum2
                scratch.left.append(PlanePoint(x: v.x + sum.x * k, y: v.y + sum.y * k))
                scratch.right.append(PlanePoint(x: v.x - sum.x * k, y: v.y - sum.y * k))
            } else {
                finish(v, n0)
                appendDisc(v, radius: h, to: &scratch)
                start(v, n1)
            }
        }
        finish(scratch.points[scratch.points.count - 1], scratch.normals[scratch.normals.count - 1])
        switch cap {
        case .butt:
            break
        case .round:
            appendDisc(scratch.points[0], radius: h, to: &scratch)
            appendDisc(scratch.points[scratch.points.count - 1], radius: h, to: &scratch)
        case .square:
            for (end, n, sign) in [
                (scratch.points[0], scratch.normals[0], -1.0),
                (scratch.points[scratch.points.count - 1], scratch.normals[scratch.normals.count - 1], 1.0),
            ] {
                // Half a width beyond the end, along the line (the normal turned back a quarter).
                let out = PlanePoint(x: n.y * h * sign, y: -n.x * h * sign)
                scratch.outline.append(PlanePoint(x: end.x + n.x * h, y: end.y + n.y * h))
                scratch.outline.append(PlanePoint(x: end.x + n.x * h + out.x, y: end.y + n.y * h + out.y))
                scratch.outline.append(PlanePoint(x: end.x - n.x * h + out.x, y: end.y - n.y * h + out.y))
                scratch.outline.append(PlanePoint(x: end.x - n.x * h, y: end.y - n.y * h))
                scratch.ends.append(scratch.outline.count)
            }
        }
    }

    /// A disc as a polygon, fine enough to stay within 0.05 px of the circle, added to the
    /// scratch's outline.
    static func appendDisc(_ c: PlanePoint, radius r: Double, to scratch: inout Scratch) {
        let n = max(8, Int((Double.pi / acos(max(-1, 1 - 0.05 / max(r, 0.05)))).rounded(.up)))
        for k in 0..<n {
            let a = 2 * Double.pi * Double(k) / Double(n)
            scratch.outline.append(PlanePoint(x: c.x + r * cos(a), y: c.y + r * sin(a)))
        }
        scratch.ends.append(scratch.outline.count)
    }
}
