import Foundation
import Geodesy
import Render

/// The neatline of a quadrangle sheet on the page: the quadrangle's meridians and parallels
/// projected into the sheet's UTM plane (they lean with the grid convergence and the
/// parallels bow slightly), and the sheet's grid meeting that neatline rather than the
/// frame's rectangle around it.
enum QuadrangleFrame {
    /// Pieces per edge: a 1° parallel's chord of 1/64 of it strays from the curve by well
    /// under a micrometre on paper at any scale a quadrangle is printed at.
    static let steps = 64

    /// The neatline (page mm), a closed ring clockwise from the north-west corner.
    static func neatline(_ quad: Quadrangle, plane: any SheetPlane, transform: FrameTransform) -> [PlanePoint] {
        quad.ring(steps: steps).map { transform.page(plane.project(latitude: $0.latitude, longitude: $0.longitude)) }
    }

    /// The corners: top-left (north-west), top-right, bottom-left, bottom-right.
    static func corners(_ neatline: [PlanePoint]) -> [PlanePoint] {
        [neatline[0], neatline[steps], neatline[3 * steps], neatline[2 * steps]]
    }

    /// Each side of the neatline as a polyline, west to east or north to south.
    static func sides(_ neatline: [PlanePoint]) -> [(side: FrameGrid.Side, points: [PlanePoint])] {
        [
            (.top, Array(neatline[0...steps])),
            (.right, Array(neatline[steps...(2 * steps)])),
            (.bottom, Array(neatline[(2 * steps)...(3 * steps)]).reversed()),
            (.left, (Array(neatline[(3 * steps)...]) + [neatline[0]]).reversed()),
        ]
    }

    /// The largest rectangle inside the neatline's sides, less a millimetre: the span along
    /// each side that the grid's values keep to.
    static func inner(_ neatline: [PlanePoint]) -> Rect {
        var r = Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
        for (side, points) in sides(neatline) {
            switch side {
            case .top: r.minY = points.map(\.y).max()!
            case .bottom: r.maxY = points.map(\.y).min()!
            case .left: r.minX = points.map(\.x).max()!
            case .right: r.maxX = points.map(\.x).min()!
            }
        }
        // A millimetre clear of the corners, whose coordinates are printed beside them.
        return r.expanded(by: -1)
    }

    /// The grid with its crossings moved from the frame's rectangle to the neatline: where
    /// each line meets each side, in FrameGrid's order.
    static func crossing(_ grid: FrameGrid, neatline: [PlanePoint]) -> FrameGrid {
        var crossings: [FrameGrid.Crossing] = []
        for (side, edge) in sides(neatline) {
            let bounds = edge.reduce(Rect.empty) { $0.including($1) }
            for (index, line) in grid.lines.enumerated() {
                for p in intersections(line.points, edge, within: bounds) {
                    crossings.append(FrameGrid.Crossing(side: side, point: p, line: index))
                }
            }
        }
        crossings.sort { ($0.side.rawValue, $0.point.x + $0.point.y) < ($1.side.rawValue, $1.point.x + $1.point.y) }
        return FrameGrid(
            type: grid.type, interval: grid.interval, format: grid.format, styles: grid.styles, lines: grid.lines,
            crossings: crossings, crs: grid.crs, annotation: grid.annotation)
    }

    /// Where polyline `a` crosses polyline `b` (each segment taken half-open, so a crossing
    /// at a shared vertex counts once); `bounds` holds `b`.
    static func intersections(_ a: [PlanePoint], _ b: [PlanePoint], within bounds: Rect) -> [PlanePoint] {
        var found: [PlanePoint] = []
        guard a.count >= 2, b.count >= 2 else { return found }
        for i in 0..<(a.count - 1) {
            let p = a[i]
            let q = a[i + 1]
            guard max(p.x, q.x) >= bounds.minX, min(p.x, q.x) <= bounds.maxX, max(p.y, q.y) >= bounds.minY,
                min(p.y, q.y) <= bounds.maxY
            else { continue }
            for j in 0..<(b.count - 1) {
                let r = b[j]
                let s = b[j + 1]
                let d = (q.x - p.x) * (s.y - r.y) - (q.y - p.y) * (s.x - r.x)
                guard d != 0 else { continue }
                let t = ((r.x - p.x) * (s.y - r.y) - (r.y - p.y) * (s.x - r.x)) / d
                let u = ((r.x - p.x) * (q.y - p.y) - (r.y - p.y) * (q.x - p.x)) / d
                if t >= 0, t < 1, u >= 0, u < 1 {
                    found.append(PlanePoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
                }
            }
        }
        return found
    }
}
