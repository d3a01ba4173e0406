import Foundation
import Geodesy
import Render

/// The zebra or line border of a quadrangle sheet, along its neatline (the quadrangle's
/// meridians and parallels, which lean and bow) rather than the frame's rectangle: each side's
/// bars are strips between the side and its parallel `frameWidth` inside it.
extension FrameMarks {
    func neatlineFrameItems(_ neatline: [PlanePoint], grid: FrameGrid) -> [PageItem] {
        let w = frameWidth
        var black: [PagePolyline] = []
        var white: [PagePolyline] = []
        var inner: [PlanePoint] = []
        for (side, points) in QuadrangleFrame.sides(neatline) {
            // Sides run west to east or north to south; inside is to the right of the top and
            // right sides as they run, to the left of the bottom and left ones.
            let path = NeatlineSide(points, inward: side == .top || side == .right ? 1 : -1, width: w)
            let length = path.length
            let offset = path.offsetPoints(from: w, to: length - w)
            // Clockwise: the bottom and left sides run against the ring.
            inner += side == .top || side == .right ? offset : offset.reversed()
            guard self.frame == .zebra else { continue }
            // The corners are black, where the bars of two sides meet.
            black += [path.strip(from: 0, to: w), path.strip(from: length - w, to: length)]
            for span in zebraSpans(side, grid: grid, start: w, end: length - w, at: { path.position(of: $0.point) }) {
                if span.black {
                    black.append(path.strip(from: span.from, to: span.to))
                } else {
                    white.append(path.strip(from: span.from, to: span.to))
                }
            }
        }
        let outline = PageItem.path([PagePolyline(inner, closed: true)], stroke: FrameGrid.tickStroke, fill: nil)
        guard self.frame == .zebra else { return [outline] }
        return [.path(white, stroke: nil, fill: .white), .path(black, stroke: nil, fill: .black), outline]
    }
}

/// One side of a neatline as a polyline measured along its length (page mm).
struct NeatlineSide {
    let points: [PlanePoint]
    /// The distance along the side to each point.
    let distances: [Double]
    /// +1 or -1: which normal points into the map.
    let inward: Double
    let width: Double

    init(_ points: [PlanePoint], inward: Double, width: Double) {
        self.points = points
        self.inward = inward
        self.width = width
        var distances = [0.0]
        for i in 1..<points.count {
            distances.append(distances[i - 1] + hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y))
        }
        self.distances = distances
    }

    var length: Double { distances[distances.count - 1] }

    /// The segment holding distance `s`.
    private func segment(_ s: Double) -> Int {
        var i = 0
        while i < points.count - 2, distances[i + 1] < s { i += 1 }
        return i
    }

    /// The point at distance `s`, and `width` inside it (square to its segment).
    private func at(_ s: Double) -> (on: PlanePoint, inside: PlanePoint) {
        let i = segment(s)
        let a = points[i]
        let b = points[i + 1]
        let d = distances[i + 1] - distances[i]
        let t = d > 0 ? (s - distances[i]) / d : 0
        let on = PlanePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        let n = d > 0 ? PlanePoint(x: -(b.y - a.y) / d * inward, y: (b.x - a.x) / d * inward) : PlanePoint(x: 0, y: 0)
        return (on, PlanePoint(x: on.x + n.x * width, y: on.y + n.y * width))
    }

    /// The distances of the vertices strictly between `from` and `to`, with both ends.
    private func stations(from: Double, to: Double) -> [Double] {
        [from] + distances.filter { $0 > from && $0 < to } + [to]
    }

    /// The line `width` inside the side, between two distances along it.
    func offsetPoints(from: Double, to: Double) -> [PlanePoint] {
        stations(from: from, to: to).map { at($0).inside }
    }

    /// The bar between two distances: along the side, then back along its inner line.
    func strip(from: Double, to: Double) -> PagePolyline {
        let s = stations(from: from, to: to)
        return PagePolyline(s.map { at($0).on } + s.reversed().map { at($0).inside }, closed: true)
    }

    /// How far along the side a point on it (a grid line's crossing) lies.
    func position(of p: PlanePoint) -> Double {
        var best = (distance: Double.infinity, along: 0.0)
        for i in 0..<(points.count - 1) {
            let a = points[i]
            let b = points[i + 1]
            let d = distances[i + 1] - distances[i]
            guard d > 0 else { continue }
            let t = max(0, min(1, ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (d * d)))
            let q = PlanePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            let off = hypot(p.x - q.x, p.y - q.y)
            if off < best.distance { best = (off, distances[i] + t * d) }
        }
        return best.along
    }
}
