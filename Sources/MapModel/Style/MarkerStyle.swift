/// A marker: a shape or an icon (PNG or SVG), at each point of the layer's point features or
/// at intervals along its lines.
public struct MarkerStyle: Sendable, Equatable {
    public enum Placement: String, Sendable, CaseIterable {
        /// At every point of point features.
        case point
        /// Along lines (and polygon rings) every `spacing` points, turned with the line.
        case line
    }

    public var shape: MarkerShape = .circle
    /// An image drawn instead of the shape.
    public var icon: ImageReference?
    /// The marker's width in points; nil for the default: 6 for shapes, an icon's own size
    /// (its pixels read as CSS pixels, 1/96 inch).
    public var size: StyleValue<Double>?
    public var fill: StyleValue<Color> = .constant(Color(rgb: 0x3366CC))
    public var opacity: StyleValue<Double> = .constant(1)
    public var outline: LineStyle?
    /// Degrees clockwise (added to the line's direction along lines).
    public var rotation: StyleValue<Double> = .constant(0)
    public var placement: Placement = .point
    /// Points between markers along a line; the first is half of it from the line's start.
    public var spacing: Double = 100
    /// Drawn even where it overlaps labels or markers placed before it.
    public var allowOverlap: Bool = true
    /// Labels and markers placed after it may overlap it.
    public var ignorePlacement: Bool = true
    /// Higher is placed first (with labels, when the marker takes part in placement).
    public var priority: Double = 0

    public static let defaultShapeSize = 6.0

    public init() {}

    /// Whether the marker is placed with the labels (it yields to them, or they to it); if
    /// not, it is drawn with its layer's features, always.
    public var takesPartInPlacement: Bool { placement == .point && !(allowOverlap && ignorePlacement) }

    var attributeNames: [String] {
        (size?.attributeNames ?? []) + fill.attributeNames + opacity.attributeNames + rotation.attributeNames
            + (outline?.attributeNames ?? [])
    }
}
