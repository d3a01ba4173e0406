import Foundation
import Geodesy

/// Hatch lines: parallel lines `spacing` pixels apart at `angle` (radians, counterclockwise
/// on the image), on a family fixed to global pixels (one line through the world's origin),
/// so neighbouring polygons and tiles continue the same lines.
enum Hatching {
    /// The segments of the family that cross `box` (global pixels), as pairs of global points.
    static func segments(in box: Rect, angle: Double, spacing: Double) -> [(PlanePoint, PlanePoint)] {
        guard spacing > 0, !box.isEmpty else { return [] }
        // Along the lines, and across them (y points down, so counterclockwise turns up).
        let along = PlanePoint(x: cos(angle), y: -sin(angle))
        let across = PlanePoint(x: sin(angle), y: cos(angle))
        let corners = [
            PlanePoint(x: box.minX, y: box.minY), PlanePoint(x: box.maxX, y: box.minY),
            PlanePoint(x: box.minX, y: box.maxY), PlanePoint(x: box.maxX, y: box.maxY),
        ]
        let offsets = corners.map { $0.x * across.x + $0.y * across.y }
        let positions = corners.map { $0.x * along.x + $0.y * along.y }
        let first = (offsets.min()! / spacing).rounded(.up)
        let last = (offsets.max()! / spacing).rounded(.down)
        guard first <= last, last - first < 100_000 else { return [] }
        let start = positions.min()!
        let end = positions.max()!
        var segments: [(PlanePoint, PlanePoint)] = []
        var k = first
        while k <= last {
            let o = k * spacing
            let base = PlanePoint(x: across.x * o, y: across.y * o)
            segments.append(
                (
                    PlanePoint(x: base.x + along.x * start, y: base.y + along.y * start),
                    PlanePoint(x: base.x + along.x * end, y: base.y + along.y * end)
                ))
            k += 1
        }
        return segments
    }
}
