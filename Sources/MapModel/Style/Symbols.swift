/// Symbol styles, as authored in the map document. Every size is in points (1/72 inch);
/// the renderer converts them to pixels and applies the reference scale.

public enum MarkerShape: String, Sendable, CaseIterable {
    case circle, square, triangle, diamond, cross, x, star
}

public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Sendable, CaseIterable { case miter, round, bevel }

/// A stroke: lines, polygon outlines, marker outlines.
public struct LineSymbol: Sendable, Equatable {
    public var color: Color = .black
    public var width: Double = 1
    /// Dash pattern: alternating on and off lengths in points; empty for a solid line.
    public var dash: [Double] = []
    public var cap: LineCap = .butt
    public var join: LineJoin = .round
    public var opacity: Double = 1

    public init(
        color: Color = .black, width: Double = 1, dash: [Double] = [], cap: LineCap = .butt,
        join: LineJoin = .round, opacity: Double = 1
    ) {
        self.color = color
        self.width = width
        self.dash = dash
        self.cap = cap
        self.join = join
        self.opacity = opacity
    }
}

/// A marker drawn at each point: `size` is the width of the shape in points.
public struct MarkerSymbol: Sendable, Equatable {
    public var shape: MarkerShape = .circle
    public var size: Double = 6
    public var fill: Color = Color(rgb: 0x3366CC)
    public var outline: LineSymbol?

    public init(
        shape: MarkerShape = .circle, size: Double = 6, fill: Color = Color(rgb: 0x3366CC), outline: LineSymbol? = nil
    ) {
        self.shape = shape
        self.size = size
        self.fill = fill
        self.outline = outline
    }
}

/// A polygon fill (even-odd is not used: holes are rings of opposite winding or inner rings,
/// filled with the nonzero rule after orienting rings, see the renderer).
public struct FillSymbol: Sendable, Equatable {
    public var color: Color = Color(rgb: 0xDDDDDD)
    public var opacity: Double = 1
    public var outline: LineSymbol?

    public init(color: Color = Color(rgb: 0xDDDDDD), opacity: Double = 1, outline: LineSymbol? = nil) {
        self.color = color
        self.opacity = opacity
        self.outline = outline
    }
}

public struct Halo: Sendable, Equatable {
    public var color: Color = .white
    public var width: Double = 1

    public init(color: Color = .white, width: Double = 1) {
        self.color = color
        self.width = width
    }
}

/// A label: text from feature attributes, placed at the point, along the middle of a line,
/// or at a polygon's visual centre, then shifted by `offset`.
public struct LabelSymbol: Sendable, Equatable {
    public var text: LabelText
    public var font: String = "DejaVu Sans"
    public var bold: Bool = false
    public var italic: Bool = false
    public var size: Double = 10
    public var color: Color = Color(rgb: 0x222222)
    public var halo: Halo?
    /// Offset in points, x to the right and y down (screen convention, as in Mapnik's dx/dy).
    /// The text is anchored on the side facing away from the point: with dy < 0 it sits
    /// above the point, with dy > 0 below it, with dx > 0 to its right.
    public var offsetX: Double = 0
    public var offsetY: Double = 0
    /// Labels with a higher priority are placed first and win collisions.
    public var priority: Double = 0

    public init(
        text: LabelText, font: String = "DejaVu Sans", bold: Bool = false, italic: Bool = false,
        size: Double = 10, color: Color = Color(rgb: 0x222222), halo: Halo? = nil,
        offsetX: Double = 0, offsetY: Double = 0, priority: Double = 0
    ) {
        self.text = text
        self.font = font
        self.bold = bold
        self.italic = italic
        self.size = size
        self.color = color
        self.halo = halo
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.priority = priority
    }
}
