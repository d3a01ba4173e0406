import Geodesy

/// Where a line that runs up the map (meridian, easting) meets one that runs across it
/// (parallel, northing): the centre of a cross in a grid drawn as crosses.
public struct GridIntersection: Sendable {
    /// Indices into `GridGeometry.lines`: the line up the map and the line across it.
    public var xLine: Int
    public var yLine: Int
    public var point: PlanePoint
    /// Where on each line: the segment (from vertex `segment` to the next) and the fraction of it.
    public var xAt: (segment: Int, fraction: Double)
    public var yAt: (segment: Int, fraction: Double)
}

/// The short pieces a grid draws instead of whole lines: crosses where lines meet, ticks
/// where lines meet an edge. They are `GridLine`s of one chunk each, with the level, axis,
/// zone and value of the line they mark, so they are drawn with that line's level style.
extension GridGeometry {
    /// Every point where an x line meets a y line (zone boundaries are neither). A point is
    /// found from the two lines' own segments, so every view that holds both lines there
    /// finds the same point.
    public func intersections() -> [GridIntersection] {
        struct Indexed {
            let index: Int
            let bounds: Rect
        }
        func bounds(_ line: GridLine) -> Rect {
            var r = Rect.empty
            for v in line.vertices { r.include(x: v.point.x, y: v.point.y) }
            return r
        }
        var xs: [Indexed] = []
        var ys: [Indexed] = []
        for (i, line) in lines.enumerated() where line.vertices.count >= 2 {
            if line.axis.labelsOnHorizontalEdges { xs.append(Indexed(index: i, bounds: bounds(line))) }
            if line.axis.labelsOnVerticalEdges { ys.append(Indexed(index: i, bounds: bounds(line))) }
        }
        var found: [GridIntersection] = []
        for x in xs {
            for y in ys where x.bounds.intersects(y.bounds) {
                let a = lines[x.index].vertices
                let b = lines[y.index].vertices
                for i in 0..<(a.count - 1) {
                    let a0 = a[i].point
                    let a1 = a[i + 1].point
                    let sa = Rect(
                        minX: min(a0.x, a1.x), minY: min(a0.y, a1.y), maxX: max(a0.x, a1.x), maxY: max(a0.y, a1.y))
                    guard sa.intersects(y.bounds) else { continue }
                    for j in 0..<(b.count - 1) {
                        let b0 = b[j].point
                        let b1 = b[j + 1].point
                        guard let (t, u) = GridGeometry.segmentsMeet(a0, a1, b0, b1) else { continue }
                        // Half-open at the far end (but the last segment's), so a meeting at a
                        // shared vertex is found once.
                        guard t < 1 || i == a.count - 2, u < 1 || j == b.count - 2 else { continue }
                        found.append(
                            GridIntersection(
                                xLine: x.index, yLine: y.index,
                                point: PlanePoint(x: a0.x + (a1.x - a0.x) * t, y: a0.y + (a1.y - a0.y) * t),
                                xAt: (i, t), yAt: (j, u)))
                    }
                }
            }
        }
        return found
    }

    /// The fractions along a0→a1 and b0→b1 where the segments meet, nil when they do not.
    static func segmentsMeet(_ a0: PlanePoint, _ a1: PlanePoint, _ b0: PlanePoint, _ b1: PlanePoint) -> (
        Double, Double
    )? {
        let rx = a1.x - a0.x
        let ry = a1.y - a0.y
        let sx = b1.x - b0.x
        let sy = b1.y - b0.y
        let denominator = rx * sy - ry * sx
        guard denominator != 0 else { return nil }
        let qx = b0.x - a0.x
        let qy = b0.y - a0.y
        let t = (qx * sy - qy * sx) / denominator
        let u = (qx * ry - qy * rx) / denominator
        guard t >= 0, t <= 1, u >= 0, u <= 1 else { return nil }
        return (t, u)
    }

    /// Crosses at every intersection: for each, the two lines followed `halfLength` (plane
    /// units) each way from the point, so the arms lie on the lines themselves.
    public func crosses(halfLength: Double) -> [GridLine] {
        var arms: [GridLine] = []
        for meeting in intersections() {
            arms.append(piece(of: meeting.xLine, at: meeting.xAt, halfLength: halfLength))
            arms.append(piece(of: meeting.yLine, at: meeting.yAt, halfLength: halfLength))
        }
        return arms
    }

    /// The stretch of line `index` from `halfLength` before the point at `at` to `halfLength`
    /// after it (measured along the line), cut short at the line's ends.
    func piece(of index: Int, at: (segment: Int, fraction: Double), halfLength: Double) -> GridLine {
        let line = lines[index]
        let v = line.vertices
        func interpolated(_ i: Int, _ f: Double) -> GridVertex {
            let a = v[i]
            let b = v[min(i + 1, v.count - 1)]
            return GridVertex(
                point: PlanePoint(
                    x: a.point.x + (b.point.x - a.point.x) * f, y: a.point.y + (b.point.y - a.point.y) * f),
                position: GeoPosition(
                    latitude: a.position.latitude + (b.position.latitude - a.position.latitude) * f,
                    longitude: a.position.longitude + (b.position.longitude - a.position.longitude) * f))
        }
        func length(_ i: Int) -> Double {
            let a = v[i].point
            let b = v[i + 1].point
            return ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        }
        let centre = interpolated(at.segment, at.fraction)
        // Backwards: whole segments while they fit, then a part of one.
        var before: [GridVertex] = []
        var left = halfLength
        var i = at.segment
        var fraction = at.fraction
        while left > 0 {
            let available = length(i) * fraction
            if available >= left {
                before.append(interpolated(i, fraction - left / length(i)))
                break
            }
            left -= available
            before.append(v[i])
            if i == 0 { break }
            i -= 1
            fraction = 1
        }
        var after: [GridVertex] = []
        left = halfLength
        i = at.segment
        fraction = at.fraction
        while left > 0 {
            let available = length(i) * (1 - fraction)
            if available >= left {
                after.append(interpolated(i, fraction + left / length(i)))
                break
            }
            left -= available
            after.append(v[i + 1])
            if i + 1 == v.count - 1 { break }
            i += 1
            fraction = 0
        }
        var piece = line
        piece.vertices = before.reversed() + [centre] + after
        piece.chunkStarts = [0]
        return piece
    }

    /// A tick where each line meets an edge of `rect` (the area by default), at right angles
    /// to the edge, `length` plane units long, into the rectangle (`inward`) or out of it.
    /// Zone boundaries get none: they are drawn whole. With `labelledEdgesOnly`, a line gets
    /// ticks only on the edges it is labelled on (`GridEdge.labels`).
    public func edgeTicks(length: Double, inward: Bool, of rect: Rect? = nil, labelledEdgesOnly: Bool = false)
        -> [GridLine]
    {
        edgeCrossings(of: rect).compactMap { crossing in
            let line = lines[crossing.lineIndex]
            guard line.axis != .boundary, let edge = crossing.edge, !labelledEdgesOnly || edge.labels(line.axis) else {
                return nil
            }
            let p = crossing.point
            let sign = inward ? 1.0 : -1.0
            let end: PlanePoint
            switch edge {
            case .top: end = PlanePoint(x: p.x, y: p.y + sign * length)
            case .bottom: end = PlanePoint(x: p.x, y: p.y - sign * length)
            case .left: end = PlanePoint(x: p.x + sign * length, y: p.y)
            case .right: end = PlanePoint(x: p.x - sign * length, y: p.y)
            }
            // Ticks are drawn, never converted back: both ends carry the line's first position.
            let position = line.vertices[0].position
            var tick = line
            tick.vertices = [GridVertex(point: p, position: position), GridVertex(point: end, position: position)]
            tick.chunkStarts = [0]
            return tick
        }
    }
}

extension GridEdge {
    /// Whether lines of `axis` are labelled on this edge: meridians and eastings on the top
    /// and bottom, parallels and northings on the left and right.
    public func labels(_ axis: GridAxis) -> Bool {
        self == .top || self == .bottom ? axis.labelsOnHorizontalEdges : axis.labelsOnVerticalEdges
    }
}
