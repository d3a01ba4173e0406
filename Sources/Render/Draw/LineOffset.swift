import Foundation
import Geodesy

/// Parallel offsets of polylines, in pixels: each segment moved `distance` to its right (left
/// when negative; y points down, so the right of a segment heading east is south), joined
/// where the moved segments meet. Where they meet further than `miterLimit` times the
/// distance from the vertex (a sharp turn), the join is bevelled instead.
enum LineOffset {
    static let miterLimit = 4.0

    /// The offset of an open polyline (`closed` false) or of a ring (`closed` true; the
    /// result is then a ring too, without its first point repeated).
    static func offset(_ points: [PlanePoint], by distance: Double, closed: Bool) -> [PlanePoint] {
        guard distance != 0 else { return points }
        // Drop repeated points: a zero-length segment has no direction.
        var p: [PlanePoint] = []
        p.reserveCapacity(points.count)
        for q in points where p.last.map({ $0.x != q.x || $0.y != q.y }) ?? true { p.append(q) }
        if closed, p.count > 1, p[0].x == p[p.count - 1].x, p[0].y == p[p.count - 1].y { p.removeLast() }
        guard p.count >= 2 else { return p }
        let n = p.count
        let segments = closed ? n : n - 1
        // The unit right-hand normal of each segment.
        var normals: [PlanePoint] = []
        normals.reserveCapacity(segments)
        for i in 0..<segments {
            let a = p[i]
            let b = p[(i + 1) % n]
            let length = hypot(b.x - a.x, b.y - a.y)
            normals.append(PlanePoint(x: -(b.y - a.y) / length, y: (b.x - a.x) / length))
        }
        var out: [PlanePoint] = []
        out.reserveCapacity(n + 8)
        for i in 0..<n {
            let hasBefore = closed || i > 0
            let hasAfter = closed || i < n - 1
            let before = normals[(i - 1 + segments) % segments]
            let after = normals[i % segments]
            if !hasBefore {
                out.append(PlanePoint(x: p[i].x + after.x * distance, y: p[i].y + after.y * distance))
            } else if !hasAfter {
                out.append(PlanePoint(x: p[i].x + before.x * distance, y: p[i].y + before.y * distance))
            } else {
                out += join(p[i], before, after, distance)
            }
        }
        return out
    }

    /// Where the two moved segments around a vertex meet: the miter point, or both moved ends
    /// when the miter would reach too far.
    private static func join(_ v: PlanePoint, _ n1: PlanePoint, _ n2: PlanePoint, _ d: Double) -> [PlanePoint] {
        let sumX = n1.x + n2.x
        let sumY = n1.y + n2.y
        // The miter direction is the normals' bisector; its length is 1 / cos(half the turn).
        let dot = n1.x * n2.x + n1.y * n2.y
        let cosHalf = ((1 + dot) / 2).squareRoot()
        if cosHalf > 1 / miterLimit {
            let length = hypot(sumX, sumY)
            let scale = d / cosHalf / length
            return [PlanePoint(x: v.x + sumX * scale, y: v.y + sumY * scale)]
        }
        return [
            PlanePoint(x: v.x + n1.x * d, y: v.y + n1.y * d), PlanePoint(x: v.x + n2.x * d, y: v.y + n2.y * d),
        ]
    }
}
