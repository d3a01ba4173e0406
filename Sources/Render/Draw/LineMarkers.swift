import Foundation
import Geodesy

/// Where markers go along a line: every `spacing` pixels of the whole line, the first half a
/// spacing from its start, each turned with the segment it sits on. Distances are counted
/// from the start of the line, not of the piece a view clipped from it, so every tile puts
/// the markers in the same places.
enum LineMarkers {
    /// The marker positions on one piece of a line that starts `startDistance` pixels along it.
    static func positions(_ piece: [PlanePoint], startDistance: Double, spacing: Double) -> [(
        point: PlanePoint, angle: Double
    )] {
        guard spacing > 0, piece.count >= 2 else { return [] }
        var out: [(point: PlanePoint, angle: Double)] = []
        // The first marker at or after the piece's start.
        var next = ((startDistance - spacing / 2) / spacing).rounded(.up) * spacing + spacing / 2
        var travelled = startDistance
        for i in 0..<(piece.count - 1) {
            let a = piece[i]
            let b = piece[i + 1]
            let length = hypot(b.x - a.x, b.y - a.y)
            guard length > 0 else { continue }
            let angle = atan2(b.y - a.y, b.x - a.x)
            while next <= travelled + length {
                let t = (next - travelled) / length
                out.append((PlanePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), angle))
                next += spacing
            }
            travelled += length
        }
        return out
    }
}
