import Foundation
import Geodesy
import MapModel
import Render

/// The geographic ticks of a UTM sheet, as USGS and NGA sheets print them: where each
/// meridian and parallel of a round interval (2.5', 5', 10'... chosen by scale) meets the
/// neatline, a short tick into the map along the line, labelled with its minutes and seconds
/// (the corners give the degrees); where two of them cross inside the map, a small cross.
/// A reader can then draw the graticule, or read a latitude and longitude, on a sheet whose
/// lines are the grid's.
enum GeographicTicks {
    struct Tick: Equatable {
        var side: FrameGrid.Side
        /// Whether it marks a meridian (`.longitude`) or a parallel (`.latitude`).
        var kind: AngleKind
        /// Degrees.
        var value: Double
        /// On the neatline, page mm.
        var point: PlanePoint
        /// A unit vector along its meridian or parallel, into the map.
        var inward: PlanePoint
    }

    /// The intervals, in minutes of arc: the finest at least `minimumSpacing` apart on paper.
    static let intervals: [Double] = [2.5, 5, 10, 15, 30, 60, 120, 300, 600]
    static let minimumSpacing = 40.0
    static let tickLength = 2.5
    /// Ticks keep this far (mm) from the frame's corners.
    static let cornerClearance = 8.0
    static let crossArm = 1.5
    static let stroke = PageStroke(color: .black, width: 0.2)
    static let font = PageFont(size: 5.5)
    static let halo = (color: Color(rgb: 0xFFFFFF, alpha: 0.85), width: 0.35)

    /// The interval in degrees for a sheet at `metresPerMillimetre` (1:24,000 to 1:100,000:
    /// 2.5'; 1:250,000: 10'), nil when even the coarsest is too close.
    static func interval(metresPerMillimetre: Double) -> Double? {
        intervals.first { $0 / 60 * 111_000 / metresPerMillimetre >= minimumSpacing }.map { $0 / 60 }
    }

    /// The ticks on the neatline: the frame's rectangle, or a quadrangle's edges.
    static func ticks(plane: any SheetPlane, transform: FrameTransform, quadrangle: Quadrangle?) -> [Tick] {
        guard let step = interval(metresPerMillimetre: transform.metresPerMillimetre) else { return [] }
        let box = quadrangle?.box ?? FrameGrid.geographicBounds(plane: plane, transform: transform)
        let meridians = values(box.west, box.east, step)
        let parallels = values(box.south, box.north, step)
        let e = transform.extent
        var ticks: [Tick] = []
        func add(_ side: FrameGrid.Side, _ kind: AngleKind, _ value: Double, _ latitude: Double, _ longitude: Double) {
            let point = transform.page(plane.project(latitude: latitude, longitude: longitude))
            // Along the line, into the map: a hundredth of a degree is far enough to give the
            // direction and near enough for the line's curvature not to show.
            let d = 0.01
            let (la, lo): (Double, Double)
            switch side {
            case .top: (la, lo) = (latitude - d, longitude)
            case .bottom: (la, lo) = (latitude + d, longitude)
            case .left: (la, lo) = (latitude, longitude + d)
            case .right: (la, lo) = (latitude, longitude - d)
            }
            let next = transform.page(plane.project(latitude: la, longitude: lo))
            ticks.append(Tick(side: side, kind: kind, value: value, point: point, inward: unit(point, next)))
        }
        if let q = quadrangle {
            for lon in meridians where lon > q.west && lon < q.east {
                add(.top, .longitude, lon, q.north, lon)
                add(.bottom, .longitude, lon, q.south, lon)
            }
            for lat in parallels where lat > q.south && lat < q.north {
                add(.left, .latitude, lat, lat, q.west)
                add(.right, .latitude, lat, lat, q.east)
            }
            return ticks
        }
        // A rectangle of the plane: where each meridian reaches the top and bottom northings,
        // each parallel the left and right eastings; none so near a corner that its label
        // would run into the collar's.
        let m = cornerClearance * transform.metresPerMillimetre
        for lon in meridians {
            for (side, y) in [(FrameGrid.Side.top, e.maxY), (.bottom, e.minY)] {
                guard
                    let lat = solve(
                        max(-84, box.south - 1), min(88, box.north + 1), y,
                        { plane.project(latitude: $0, longitude: lon).y })
                else { continue }
                let x = plane.project(latitude: lat, longitude: lon).x
                if x > e.minX + m, x < e.maxX - m { add(side, .longitude, lon, lat, lon) }
            }
        }
        for lat in parallels {
            for (side, x) in [(FrameGrid.Side.left, e.minX), (.right, e.maxX)] {
                guard let lon = solve(box.west - 1, box.east + 1, x, { plane.project(latitude: lat, longitude: $0).x })
                else { continue }
                let y = plane.project(latitude: lat, longitude: lon).y
                if y > e.minY + m, y < e.maxY - m { add(side, .latitude, lat, lat, lon) }
            }
        }
        return ticks
    }

    /// The ticks, their labels and the crosses inside the map, as page items. `border`, the
    /// main grid's marks, may put a zebra or line border inside the neatline: the labels
    /// start past it. `annotation`, when it writes latitudes and longitudes, writes the
    /// labels in full its way (`40°47.50′ N`) instead of the minutes and seconds alone.
    static func items(
        plane: any SheetPlane, transform: FrameTransform, quadrangle: Quadrangle?, border: FrameMarks? = nil,
        annotation: GridAnnotation? = nil, measure: (PageText) -> PageTextSize
    ) -> [PageItem] {
        let ticks = ticks(plane: plane, transform: transform, quadrangle: quadrangle)
        guard !ticks.isEmpty, let step = interval(metresPerMillimetre: transform.metresPerMillimetre) else { return [] }
        var lines = ticks.map { t in
            PagePolyline([
                t.point,
                PlanePoint(x: t.point.x + t.inward.x * tickLength, y: t.point.y + t.inward.y * tickLength),
            ])
        }
        // Crosses where a meridian and a parallel of the interval meet inside the map, each
        // arm along its line.
        let box = quadrangle?.box ?? FrameGrid.geographicBounds(plane: plane, transform: transform)
        let inside = transform.frame.expanded(by: -2 * tickLength)
        for lat in values(box.south, box.north, step) {
            for lon in values(box.west, box.east, step) {
                let p = transform.page(plane.project(latitude: lat, longitude: lon))
                if let q = quadrangle, !(lat > q.south && lat < q.north && lon > q.west && lon < q.east) { continue }
                guard inside.contains(p) else { continue }
                for (la, lo) in [(lat + 0.01, lon), (lat, lon + 0.01)] {
                    let u = unit(p, transform.page(plane.project(latitude: la, longitude: lo)))
                    lines.append(
                        PagePolyline([
                            PlanePoint(x: p.x - u.x * crossArm, y: p.y - u.y * crossArm),
                            PlanePoint(x: p.x + u.x * crossArm, y: p.y + u.y * crossArm),
                        ]))
                }
            }
        }
        var items: [PageItem] = [.path(lines, stroke: stroke, fill: nil)]
        // The value beside the tick, inside the neatline: after the tick along the top and
        // bottom, above it on the sides.
        let gap = 0.5
        // Away from the neatline: the gap, and the border's depth when there is one.
        let inset = gap + borderDepth(border)
        let style = annotation?.angleStyle(step: step)
        for t in ticks {
            let position: PlanePoint
            let anchor: PageTextAnchor
            switch t.side {
            case .top:
                position = PlanePoint(x: t.point.x + gap, y: t.point.y + inset)
                anchor = PageTextAnchor(.left, .top)
            case .bottom:
                position = PlanePoint(x: t.point.x + gap, y: t.point.y - inset)
                anchor = PageTextAnchor(.left, .bottom)
            case .left:
                position = PlanePoint(x: t.point.x + inset, y: t.point.y - gap)
                anchor = PageTextAnchor(.left, .bottom)
            case .right:
                position = PlanePoint(x: t.point.x - inset, y: t.point.y - gap)
                anchor = PageTextAnchor(.right, .bottom)
            }
            let text =
                style.map { AngleFormat.annotation(t.value, kind: t.kind, style: $0) } ?? label(t.value, kind: t.kind)
            items.append(.text(PageText(text, font: font, at: position, anchor: anchor, halo: halo)))
        }
        return items
    }

    /// How deep the border inside the neatline is (mm): a zebra's or a line frame's width.
    static func borderDepth(_ marks: FrameMarks?) -> Double {
        guard let marks, marks.frame != .none else { return 0 }
        return max(0, marks.frameWidth)
    }

    /// Minutes and seconds, `57'30"`, as USGS sheets print them between the corners; a whole
    /// degree in full, `74°W`.
    static func label(_ value: Double, kind: AngleKind) -> String {
        let full = AngleFormat.dms(value, kind: kind, trailing: .second, style: .compact)
        guard let degree = full.firstIndex(of: "°") else { return full }
        let rest = full[full.index(after: degree)...]
        guard rest.count > 1 else { return full }
        return String(rest.dropLast())
    }

    /// The multiples of `step` from `low` to `high`.
    static func values(_ low: Double, _ high: Double, _ step: Double) -> [Double] {
        let first = Quadrangle.cell(low, step)
        let last = (high / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }

    /// The argument in `low...high` where the increasing `f` reaches `target` (bisection to a
    /// nanodegree), nil when it does not in that range.
    static func solve(_ low: Double, _ high: Double, _ target: Double, _ f: (Double) -> Double) -> Double? {
        var lo = low
        var hi = high
        guard f(lo) <= target, f(hi) >= target else { return nil }
        while hi - lo > 1e-10 {
            let mid = (lo + hi) / 2
            if f(mid) < target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    static func unit(_ from: PlanePoint, _ to: PlanePoint) -> PlanePoint {
        let dx = to.x - from.x
        let dy = to.y - from.y
        let length = (dx * dx + dy * dy).squareRoot()
        return length > 0 ? PlanePoint(x: dx / length, y: dy / length) : PlanePoint(x: 0, y: 0)
    }
}
