import Foundation
import Geodesy
import Grids
import MapModel
import Render

/// What a sheet's grid draws besides its whole lines (`GridMarkStyle`): crosses instead of the
/// lines, ticks along the neatline inside or outside it, sub-ticks between the lines, and a
/// border just inside the neatline: zebra bars alternating between the lines, or a second
/// line. Page millimetres throughout.
public struct FrameMarks: Sendable {
    public var kind: GridMarkStyle.Kind = .lines
    public var tickPosition: GridMarkStyle.TickPosition = .outside
    /// Inside ticks, in millimetres (outside ticks are the collar's, `FrameGrid.tickLength`).
    public var tickLength = FrameGrid.tickLength
    public var frame: GridMarkStyle.Frame = .none
    /// The border's depth, in millimetres.
    public var frameWidth = 0.0
    /// The arms of the crosses, each with its line's level.
    public var crosses: [FrameGrid.Line] = []
    /// Where the lines of the sub-tick interval meet the neatline: meridians and eastings on
    /// the top and bottom, parallels and northings on the sides (the sides the lines are
    /// labelled on: a meridian leaving through a side would crowd the parallels' sub-ticks).
    public var subTicks: [(side: FrameGrid.Side, point: PlanePoint)] = []
    /// The step and offset of the lines up the sheet and across it (degrees or metres), for
    /// the zebra's alternation.
    public var spacing: (x: GridSpacing, y: GridSpacing)?

    static let millimetresPerPoint = 25.4 / 72
    /// Lines closer than this on paper make the document's interval give way to the sheet's own.
    static let minimumIntervalSpacing = 2.0

    public init() {}

    /// The document's interval if its lines are at least `minimumIntervalSpacing` apart on
    /// paper (the sheet's own levels otherwise).
    static func interval(_ interval: GridInterval?, type: GridType, metresPerMillimetre: Double) -> GridInterval? {
        guard let interval else { return nil }
        let metres = min(interval.x, interval.y) * FrameGrid.metresPerUnit(type)
        return metres / metresPerMillimetre >= minimumIntervalSpacing ? interval : nil
    }

    static func make(
        _ style: GridMarkStyle, geometry: GridGeometry, request: GridRequest, projection: SheetGridProjection,
        transform: FrameTransform
    ) -> FrameMarks {
        var marks = FrameMarks()
        marks.kind = style.kind
        marks.tickPosition = style.kind == .ticks ? style.tickPosition : .outside
        marks.tickLength = style.kind == .ticks ? style.tickLength * millimetresPerPoint : FrameGrid.tickLength
        marks.frame = style.frame
        marks.frameWidth = style.frame == .none ? 0 : style.frameWidth * millimetresPerPoint
        marks.spacing = geometry.spacing
        let unitsPerMillimetre = SheetGridProjection.unitsPerMillimetre
        func page(_ line: GridLine) -> FrameGrid.Line {
            FrameGrid.Line(
                axis: line.axis, value: line.value, level: line.level,
                points: line.vertices.map { projection.page($0.point, transform) })
        }
        if style.kind == .crosses {
            marks.crosses = geometry.crosses(
                halfLength: style.crossLength / 2 * millimetresPerPoint * unitsPerMillimetre
            )
            .map(page)
        }
        if style.subTicks > 0, let spacing = geometry.spacing {
            let n = Double(style.subTicks + 1)
            var fine = request
            fine.interval = GridInterval(
                x: spacing.x.step / n, y: spacing.y.step / n, offsetX: spacing.x.offset, offsetY: spacing.y.offset)
            let area = projection.rect(of: transform.extent)
            // An interval that does not divide into whole seconds of arc or metres gets none.
            if let geometry = try? Grid.generate(fine, projection: projection, area: area) {
                for c in geometry.edgeCrossings(of: area) {
                    let line = geometry.lines[c.lineIndex]
                    let s = line.axis.labelsOnHorizontalEdges ? spacing.x : spacing.y
                    let k = (line.value - s.offset) / s.step
                    guard abs(k - k.rounded()) > 1e-6, let edge = c.edge, edge.labels(line.axis) else { continue }
                    marks.subTicks.append((FrameMarks.side(edge), projection.page(c.point, transform)))
                }
            }
        }
        return marks
    }

    static func side(_ edge: GridEdge) -> FrameGrid.Side {
        switch edge {
        case .top: return .top
        case .bottom: return .bottom
        case .left: return .left
        case .right: return .right
        }
    }

    /// A tick from `p` on the neatline's `side`, `length` long, out of the frame or into it.
    static func tick(_ p: PlanePoint, side: FrameGrid.Side, length: Double, inward: Bool) -> PagePolyline {
        let t = inward ? -length : length
        switch side {
        case .top: return PagePolyline([p, PlanePoint(x: p.x, y: p.y - t)])
        case .bottom: return PagePolyline([p, PlanePoint(x: p.x, y: p.y + t)])
        case .left: return PagePolyline([p, PlanePoint(x: p.x - t, y: p.y)])
        case .right: return PagePolyline([p, PlanePoint(x: p.x + t, y: p.y)])
        }
    }

    /// The ticks at the grid's crossings and the sub-ticks, outside the neatline or inside
    /// (inside ticks start at the border's inner edge, so they show over a zebra).
    func tickItems(frame: Rect, crossings grid: FrameGrid) -> [PageItem] {
        let inward = tickPosition == .inside
        let start = inward ? frameWidth : 0
        func moved(_ p: PlanePoint, _ side: FrameGrid.Side) -> PlanePoint {
            switch side {
            case .top: return PlanePoint(x: p.x, y: p.y + start)
            case .bottom: return PlanePoint(x: p.x, y: p.y - start)
            case .left: return PlanePoint(x: p.x + start, y: p.y)
            case .right: return PlanePoint(x: p.x - start, y: p.y)
            }
        }
        let length = inward ? tickLength : FrameGrid.tickLength
        var ticks = grid.crossings.map {
            FrameMarks.tick(moved($0.point, $0.side), side: $0.side, length: length, inward: inward)
        }
        ticks += subTicks.map {
            FrameMarks.tick(moved($0.point, $0.side), side: $0.side, length: length / 2, inward: inward)
        }
        return ticks.isEmpty ? [] : [.path(ticks, stroke: FrameGrid.tickStroke, fill: nil)]
    }

    /// The border inside the neatline: zebra bars or a second line.
    func frameItems(frame: Rect, crossings grid: FrameGrid) -> [PageItem] {
        let w = frameWidth
        guard self.frame != .none, w > 0 else { return [] }
        if let neatline = grid.neatline { return neatlineFrameItems(neatline, grid: grid) }
        let inner = frame.expanded(by: -w)
        let outline = PageItem.path(
            [PagePolyline(inner.corners, closed: true)], stroke: FrameGrid.tickStroke, fill: nil)
        guard self.frame == .zebra else { return [outline] }
        var black: [PagePolyline] = []
        var white: [PagePolyline] = []
        for side in FrameGrid.Side.allCases {
            for bar in zebraBars(side, frame: frame, grid: grid) {
                let ring = PagePolyline(bar.rect.corners, closed: true)
                if bar.black { black.append(ring) } else { white.append(ring) }
            }
        }
        // The corners are black squares, where the bars of two sides meet.
        for corner in frame.corners {
            let x = corner.x == frame.minX ? frame.minX : frame.maxX - w
            let y = corner.y == frame.minY ? frame.minY : frame.maxY - w
            black.append(PagePolyline(Rect(x: x, y: y, width: w, height: w).corners, closed: true))
        }
        return [.path(white, stroke: nil, fill: .white), .path(black, stroke: nil, fill: .black), outline]
    }

    /// The bars along one side, between the corners' squares: they change colour at every
    /// line of the family that side labels (meridians and eastings on the top and bottom,
    /// parallels and northings on the left and right); a bar after a line whose index (value
    /// less offset, over the step) is even is black, so the pattern belongs to the grid.
    func zebraBars(_ side: FrameGrid.Side, frame: Rect, grid: FrameGrid) -> [(rect: Rect, black: Bool)] {
        let w = frameWidth
        let horizontal = side == .top || side == .bottom
        let start = (horizontal ? frame.minX : frame.minY) + w
        let end = (horizontal ? frame.maxX : frame.maxY) - w
        return zebraSpans(side, grid: grid, start: start, end: end) { horizontal ? $0.point.x : $0.point.y }.map {
            span in
            let rect: Rect
            switch side {
            case .top: rect = Rect(x: span.from, y: frame.minY, width: span.to - span.from, height: w)
            case .bottom: rect = Rect(x: span.from, y: frame.maxY - w, width: span.to - span.from, height: w)
            case .left: rect = Rect(x: frame.minX, y: span.from, width: w, height: span.to - span.from)
            case .right: rect = Rect(x: frame.maxX - w, y: span.from, width: w, height: span.to - span.from)
            }
            return (rect, span.black)
        }
    }

    /// The bars along one side as spans of a position along it (`at`, rising left to right or
    /// down the page) between `start` and `end`, each with its colour.
    func zebraSpans(
        _ side: FrameGrid.Side, grid: FrameGrid, start: Double, end: Double, at position: (FrameGrid.Crossing) -> Double
    ) -> [(from: Double, to: Double, black: Bool)] {
        let horizontal = side == .top || side == .bottom
        let along = grid.crossings(labelledOn: side).sorted { position($0) < position($1) }
        func even(_ c: FrameGrid.Crossing) -> Bool {
            let line = grid.lines[c.line]
            let s = horizontal ? spacing?.x : spacing?.y
            let k = Int64(((line.value - (s?.offset ?? 0)) / (s?.step ?? grid.interval)).rounded())
            return k % 2 == 0
        }
        // Positions along the side where the colour changes, and the colour after each.
        var cuts: [(at: Double, black: Bool)] = []
        for c in along {
            let at = position(c)
            guard at > start, at < end else { continue }
            // Values rise left to right along the top and bottom, but up the sides: down the
            // page a bar after a line is the one before it in value.
            cuts.append((at, horizontal ? even(c) : !even(c)))
        }
        var spans: [(from: Double, to: Double, black: Bool)] = []
        var from = start
        var colour = cuts.first.map { !$0.black } ?? false
        for cut in cuts + [(end, false)] {
            if cut.at > from { spans.append((from, cut.at, colour)) }
            from = cut.at
            colour = cut.black
        }
        return spans
    }
}
