import Foundation
import Geodesy

/// A polyline measured along its length, for placing things at distances along it.
struct Polyline {
    let points: [PlanePoint]
    /// Distance from the start to each point.
    let distances: [Double]

    /// Repeated points are dropped (they have no direction).
    init(_ points: [PlanePoint]) {
        var kept: [PlanePoint] = []
        var distances: [Double] = []
        for p in points {
            if let last = kept.last {
                let step = hypot(p.x - last.x, p.y - last.y)
                guard step > 0 else { continue }
                distances.append(distances[distances.count - 1] + step)
            } else {
                distances.append(0)
            }
            kept.append(p)
        }
        self.points = kept
        self.distances = distances
    }

    var length: Double { distances.last ?? 0 }

    var reversed: Polyline { Polyline(points.reversed()) }

    /// The segment that holds distance `s` (clamped to the line).
    func segment(at s: Double) -> Int {
        // The last point whose distance is at most s, as a segment start.
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if distances[middle] <= s { low = middle } else { high = middle }
        }
        return low
    }

    /// The point at distance `s` and the direction of the line there (radians, clockwise
    /// from east on the image).
    func point(at s: Double) -> (point: PlanePoint, angle: Double) {
        let i = segment(at: s)
        let a = points[i]
        let b = points[i + 1]
        let length = distances[i + 1] - distances[i]
        let t = Swift.min(Swift.max((s - distances[i]) / length, 0), 1)
        return (PlanePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
    }

    /// The total turn (radians, each bend counted positive) at the points strictly between
    /// distances `a` and `b`.
    func turning(from a: Double, to b: Double) -> Double {
        var total = 0.0
        var i = segment(at: a) + 1
        while i < points.count - 1, distances[i] < b {
            let before = atan2(points[i].y - points[i - 1].y, points[i].x - points[i - 1].x)
            let after = atan2(points[i + 1].y - points[i].y, points[i + 1].x - points[i].x)
            total += abs(remainder(after - before, 2 * .pi))
            i += 1
        }
        return total
    }
}

extension Polyline {
    /// The line with points dropped that lie within `tolerance` of the simplified line
    /// (Douglas–Peucker): the small wiggles of a detailed line, at this resolution, are not
    /// bends that text must avoid.
    func simplified(tolerance: Double) -> Polyline {
        guard points.count > 2 else { return self }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            let a = points[first]
            let b = points[last]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = hypot(dx, dy)
            var farthest = -1
            var distance = tolerance
            for i in (first + 1)..<last {
                let p = points[i]
                let d =
                    length > 0
                    ? abs((p.x - a.x) * dy - (p.y - a.y) * dx) / length : hypot(p.x - a.x, p.y - a.y)
                if d > distance {
                    distance = d
                    farthest = i
                }
            }
            if farthest >= 0 {
                keep[farthest] = true
                if farthest - first > 1 { stack.append((first, farthest)) }
                if last - farthest > 1 { stack.append((farthest, last)) }
            }
        }
        return Polyline(points.indices.filter { keep[$0] }.map { points[$0] })
    }
}
