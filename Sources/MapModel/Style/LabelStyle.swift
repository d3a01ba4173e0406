/// A label: text from feature attributes, placed at a point (a point feature, halfway along a
/// line, a polygon's visual centre) or along lines, and kept clear of other labels.
public struct LabelStyle: Sendable, Equatable {
    public var text: LabelContent
    public var font: String = "DejaVu Sans"
    public var bold: Bool = false
    public var italic: Bool = false
    public var size: StyleValue<Double> = .constant(10)
    public var color: StyleValue<Color> = .constant(Color(rgb: 0x222222))
    public var halo: HaloStyle?
    /// Offset in points, x to the right and y down (screen convention, as in Mapnik's dx/dy).
    /// The text is anchored on the side facing away from the point: with dy < 0 it sits
    /// above the point, with dy > 0 below it, with dx > 0 to its right. Along lines, dy moves
    /// the text off the line (down, on the reader's right, when positive).
    public var offsetX: StyleValue<Double> = .constant(0)
    public var offsetY: StyleValue<Double> = .constant(0)
    /// Labels with a higher priority are placed first and win collisions.
    public var priority: Double = 0
    public var placement: Placement = .point
    /// Along lines: points between repetitions of the label; nil for one label per line, halfway.
    public var spacing: Double?
    /// Along lines: the largest turn, in degrees, between neighbouring characters.
    public var maxAngle: Double = 45
    /// For point placement: the positions around the point tried in order until one is free;
    /// nil for the one position `offset` gives.
    public var positions: [Position]?
    /// With `positions`: points between the point and the text.
    public var distance: Double = 3
    /// Wrap the text at this width, in ems (multiples of the text size); nil for one line.
    public var maxWidth: Double?
    public var transform: TextTransform = .none
    /// Extra space between characters, in ems.
    public var letterSpacing: Double = 0
    /// Distance between the baselines of wrapped lines, in ems; nil for the font's own.
    public var lineHeight: Double?
    /// In a single image (not tiles), drop a label rather than let the image's edge cut it
    /// (trying its other positions first). On by default: a polygon cut by the edge is
    /// labelled in its visible part, so a cut label is never the only one it could have.
    public var avoidEdges: Bool = true
    /// Placed even where it overlaps labels and markers placed before it.
    public var allowOverlap: Bool = false
    /// Labels and markers placed after it may overlap it.
    public var ignorePlacement: Bool = false

    public enum Placement: String, Sendable, CaseIterable {
        case point
        /// Along lines (and polygon rings), following their curves, upright.
        case line
    }

    /// Where the text sits relative to its point: `N` above it, `NE` above and right...; `C` centred.
    public enum Position: String, Sendable, CaseIterable {
        case N, NE, E, SE, S, SW, W, NW, C

        /// The text's direction from the point: x right, y down, each -1, 0 or 1.
        public var direction: (x: Double, y: Double) {
            switch self {
            case .N: return (0, -1)
            case .NE: return (1, -1)
            case .E: return (1, 0)
            case .SE: return (1, 1)
            case .S: return (0, 1)
            case .SW: return (-1, 1)
            case .W: return (-1, 0)
            case .NW: return (-1, -1)
            case .C: return (0, 0)
            }
        }
    }

    public enum TextTransform: String, Sendable, CaseIterable {
        case none, uppercase, lowercase

        public func apply(_ text: String) -> String {
            switch self {
            case .none: return text
            case .uppercase: return text.uppercased()
            case .lowercase: return text.lowercased()
            }
        }
    }

    public init(text: LabelContent) {
        self.text = text
    }

    var attributeNames: [String] {
        text.attributeNames + size.attributeNames + color.attributeNames + offsetX.attributeNames
            + offsetY.attributeNames + (halo.map { $0.color.attributeNames + $0.width.attributeNames } ?? [])
    }
}

public struct HaloStyle: Sendable, Equatable {
    public var color: StyleValue<Color> = .constant(.white)
    public var width: StyleValue<Double> = .constant(1)

    public init() {}
}

/// A label's text: a template of literal text and attributes, or an expression.
public enum LabelContent: Sendable, Equatable {
    case template(LabelText)
    case expression(StyleExpression)

    /// The text for one feature at one zoom; empty for none.
    public func resolve(_ context: EvaluationContext) -> String {
        switch self {
        case .template(let template): return template.resolve(context.properties)
        case .expression(let expression): return String(expression.evaluate(context)) ?? ""
        }
    }

    public var attributeNames: [String] {
        switch self {
        case .template(let template):
            return template.pieces.compactMap { if case .attribute(let name) = $0 { return name } else { return nil } }
        case .expression(let expression): return expression.attributeNames
        }
    }

    /// A template whose text for any feature is at least as long as this content's: the
    /// template itself, or for an expression the pieces each branch can print, one after
    /// another (a number counts as 24 characters, the longest `Double` text; an input that
    /// only chooses a branch counts for nothing). Sources that do not hold their features
    /// measure it (`FeatureSource.longestLabel`).
    public var lengthBound: LabelText {
        switch self {
        case .template(let template): return template
        case .expression(let expression): return LabelText(pieces: LabelContent.lengthPieces(expression))
        }
    }

    private static let numberText = LabelText.Piece.literal(String(repeating: "0", count: 24))

    private static func lengthPieces(_ expression: StyleExpression) -> [LabelText.Piece] {
        switch expression {
        case .literal(.string(let text)): return [.literal(text)]
        case .literal, .zoom, .math, .toNumber, .interpolate: return [numberText]
        case .get(let name): return [.attribute(name)]
        case .has, .compare, .not, .all, .any: return [.literal("false")]
        case .match(_, let branches, let otherwise):
            return (branches.map(\.output) + [otherwise]).flatMap(lengthPieces)
        case .condition(let branches, let otherwise):
            return (branches.map(\.output) + [otherwise]).flatMap(lengthPieces)
        case .step(_, let first, let stops): return ([first] + stops.map(\.output)).flatMap(lengthPieces)
        case .coalesce(let items), .concat(let items): return items.flatMap(lengthPieces)
        case .upcase(let inner), .downcase(let inner), .toString(let inner): return lengthPieces(inner)
        }
    }

    /// Whether the text can change with the zoom.
    public var readsZoom: Bool {
        if case .expression(let expression) = self { return expression.readsZoom }
        return false
    }
}
