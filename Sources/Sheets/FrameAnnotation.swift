import Geodesy
import MapModel
import Render

/// The grid's `annotation` on a sheet: which lines each side of the neatline names, and where
/// their values go: outside in the collar (the default) or inside over the map, horizontal
/// or turned to read up the left and right sides.
extension FrameGrid {
    /// Halo of values printed over the map, as the geographic ticks' values have.
    static let insideHalo = (color: Color(rgb: 0xFFFFFF, alpha: 0.85), width: 0.35)

    /// The crossings on `side` of the lines the annotation names there: by default meridians
    /// and eastings on the top and bottom, parallels and northings on the sides.
    func crossings(annotatedOn side: Side) -> [Crossing] {
        guard let annotation, let edge = GridAnnotation.Edge(rawValue: side.rawValue) else {
            return crossings(labelledOn: side)
        }
        return crossings.filter { c in
            let axis = lines[c.line].axis
            guard c.side == side, axis.labelsOnHorizontalEdges || axis.labelsOnVerticalEdges else { return false }
            return annotation.names(edge, linesUpTheMap: axis.labelsOnHorizontalEdges)
        }
    }

    /// Where the values of `side` go: for a crossing point, the text's position and anchor;
    /// outside beyond the collar's tick, inside past the frame's border and any inside tick.
    struct LabelPlacement {
        var side: Side
        var inside: Bool
        var turned: Bool
        /// From the neatline to the text's box, mm.
        var distance: Double

        func callAsFunction(_ p: PlanePoint) -> (PlanePoint, PageTextAnchor) {
            let d = inside ? -distance : distance
            switch side {
            case .top:
                return (PlanePoint(x: p.x, y: p.y - d), PageTextAnchor(.center, inside ? .top : .bottom))
            case .bottom:
                return (PlanePoint(x: p.x, y: p.y + d), PageTextAnchor(.center, inside ? .bottom : .top))
            case .left:
                return (PlanePoint(x: p.x - d, y: p.y), PageTextAnchor(inside ? .left : .right, .middle))
            case .right:
                return (PlanePoint(x: p.x + d, y: p.y), PageTextAnchor(inside ? .right : .left, .middle))
            }
        }
    }

    func labelPlacement(_ side: Side) -> LabelPlacement {
        let edge = GridAnnotation.Edge(rawValue: side.rawValue)
        let setting = edge.flatMap { annotation?[$0] }
        let inside = setting?.position == .inside
        let turned = edge.map { annotation?.turned($0) ?? false } ?? false
        let distance =
            inside
            ? marks.frameWidth + (marks.tickPosition == .inside ? marks.tickLength : 0) + FrameGrid.labelGap
            : FrameGrid.tickLength + FrameGrid.labelGap
                + (side == .left || side == .right ? band.leftRight : band.topBottom)
        return LabelPlacement(side: side, inside: inside, turned: turned, distance: distance)
    }
}
