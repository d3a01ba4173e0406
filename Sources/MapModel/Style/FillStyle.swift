/// How a layer fills polygons: a colour, optionally a repeating image pattern and hatching
/// over it, and an outline. Polygons with holes and multipolygons fill even-odd per feature.
public struct FillStyle: Sendable, Equatable {
    public var color: StyleValue<Color> = .constant(Color(rgb: 0xDDDDDD))
    public var opacity: StyleValue<Double> = .constant(1)
    public var pattern: Pattern?
    public var hatch: Hatch?
    /// The rings' stroke; its `offset` moves it inward.
    public var outline: LineStyle?

    /// An image repeated over the fill, anchored to the map (not to each polygon or tile), so
    /// neighbouring polygons and tiles continue one pattern.
    public struct Pattern: Sendable, Equatable {
        public var image: ImageReference
        /// The width of one repetition in points; nil for the image's own size (its pixels
        /// read as CSS pixels, 1/96 inch).
        public var size: Double?

        public init(image: ImageReference, size: Double? = nil) {
            self.image = image
            self.size = size
        }
    }

    /// Parallel lines across the fill, anchored to the map.
    public struct Hatch: Sendable, Equatable {
        /// Degrees counterclockwise from horizontal.
        public var angle: Double = 45
        /// Points between the lines' centres.
        public var spacing: Double = 6
        /// Points.
        public var width: Double = 0.5
        public var color: StyleValue<Color> = .constant(.black)

        public init() {}
    }

    public init() {}

    var attributeNames: [String] {
        color.attributeNames + opacity.attributeNames + (hatch?.color.attributeNames ?? [])
            + (outline?.attributeNames ?? [])
    }
}
