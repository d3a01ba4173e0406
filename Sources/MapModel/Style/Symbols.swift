/// The constant parts of symbols, shared by the layer styles (whose values can be expressions,
/// see LineStyle, FillStyle, MarkerStyle, LabelStyle) and the grid (whose values are constants).
/// Every size is in points (1/72 inch); the renderer converts them to pixels and applies the
/// reference scale.

public enum MarkerShape: String, Sendable, CaseIterable {
    /// `arrow` points right (east) before rotation: along a line, in the line's direction.
    case circle, square, triangle, diamond, cross, x, star, arrow
}

public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Sendable, CaseIterable { case miter, round, bevel }

/// A stroke of constant values: the grid's lines, and a layer's strokes as drawn for one feature.
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

public struct Halo: Sendable, Equatable {
    public var color: Color = .white
    public var width: Double = 1

    public init(color: Color = .white, width: Double = 1) {
        self.color = color
        self.width = width
    }
}
