/// One stroke of a layer's lines (and of its polygons' rings), as authored: colour, width,
/// opacity and offset can be expressions. A rule's `line` is one stroke or a list of them,
/// drawn in order over all the rule's features (a wide casing, then the core above it).
public struct LineStyle: Sendable, Equatable {
    public var color: StyleValue<Color> = .constant(.black)
    public var width: StyleValue<Double> = .constant(1)
    public var opacity: StyleValue<Double> = .constant(1)
    /// Parallel offset in points: to the right of the line's direction when positive (to the
    /// left when negative); on polygon rings, inward when positive (as in MapLibre styles).
    public var offset: StyleValue<Double> = .constant(0)
    /// Alternating on and off lengths, in `dashUnit`; empty for a solid line.
    public var dash: [Double] = []
    public var dashUnit: DashUnit = .points
    public var cap: LineCap = .butt
    public var join: LineJoin = .round

    public enum DashUnit: String, Sendable, CaseIterable {
        /// Lengths in points, scaled like every other size.
        case points
        /// Lengths in multiples of the line's width (as MapLibre's `line-dasharray`), so the
        /// pattern grows with a width that changes with the zoom.
        case width
    }

    public init() {}

    /// The attribute names its expressions read.
    var attributeNames: [String] {
        color.attributeNames + width.attributeNames + opacity.attributeNames + offset.attributeNames
    }
}
