import Foundation
import MapModel

/// Marker shapes as closed paths centred on a point; `size` is the shape's width in pixels.
enum MarkerPath {
    static func add(_ shape: MarkerShape, x: Double, y: Double, size: Double, to context: CairoContext) {
        let r = size / 2
        switch shape {
        case .circle:
            context.circle(x, y, radius: r)
        case .square:
            polygon([(-r, -r), (r, -r), (r, r), (-r, r)], x, y, context)
        case .triangle:
            // Equilateral, point up, centred on its bounding box.
            let h = size * 3.0.squareRoot() / 2
            polygon([(0, -h / 2), (r, h / 2), (-r, h / 2)], x, y, context)
        case .diamond:
            polygon([(0, -r), (r, 0), (0, r), (-r, 0)], x, y, context)
        case .cross:
            polygon(plus(r), x, y, context)
        case .x:
            // The plus turned 45°, sized so the corners of its arms touch the marker's square:
            // an arm of half-length R and half-thickness R/4 reaches (R + R/4)/√2 = r.
            let c = cos(Double.pi / 4)
            let s = sin(Double.pi / 4)
            let k = 2.0.squareRoot() / 1.25
            polygon(plus(r * k).map { ($0.0 * c - $0.1 * s, $0.0 * s + $0.1 * c) }, x, y, context)
        case .star:
            // Five points, the inner radius of a regular pentagram (r * 0.382).
            var points: [(Double, Double)] = []
            for i in 0..<10 {
                let radius = i % 2 == 0 ? r : r * 0.381966
                let angle = -Double.pi / 2 + Double(i) * Double.pi / 5
                points.append((radius * cos(angle), radius * sin(angle)))
            }
            polygon(points, x, y, context)
        case .arrow:
            // An arrowhead pointing right, notched at the back: it reads as a direction along
            // a line once turned with it.
            polygon([(r, 0), (-r, -r * 0.75), (-r * 0.45, 0), (-r, r * 0.75)], x, y, context)
        }
    }

    /// A plus sign of half-width r and arm thickness r/2.
    private static func plus(_ r: Double) -> [(Double, Double)] {
        let t = r / 4
        return [
            (-t, -r), (t, -r), (t, -t), (r, -t), (r, t), (t, t), (t, r), (-t, r), (-t, t), (-r, t), (-r, -t), (-t, -t),
        ]
    }

    private static func polygon(_ points: [(Double, Double)], _ x: Double, _ y: Double, _ context: CairoContext) {
        context.moveTo(x + points[0].0, y + points[0].1)
        for p in points.dropFirst() { context.lineTo(x + p.0, y + p.1) }
        context.closePath()
    }
}
