/// A MapLibre-style expression, as a style value that depends on the zoom or a feature's
/// attributes: `["interpolate", ["linear"], ["zoom"], 5, 0.5, 10, 3]`,
/// `["match", ["get", "type"], "motorway", "#e892a2", "#ffffff"]`. The subset Meridian reads
/// is listed in docs/style/expressions.md; types are checked when the document is read, so a
/// well-formed document cannot fail while it renders (a missing attribute yields no value, and
/// the style key falls back to its default).
public indirect enum StyleExpression: Sendable, Equatable {
    case literal(ExpressionValue)
    /// An attribute of the feature (`null` when it has none).
    case get(String)
    /// Whether the feature has the attribute with a value other than null.
    case has(String)
    /// The view's Web Mercator zoom (see `ZoomScale`).
    case zoom
    case match(StyleExpression, [MatchBranch], otherwise: StyleExpression)
    case condition([CaseBranch], otherwise: StyleExpression)
    case step(StyleExpression, first: StyleExpression, stops: [Stop])
    case interpolate(Interpolation, StyleExpression, stops: [Stop])
    case coalesce([StyleExpression])
    case math(MathOperator, [StyleExpression])
    case compare(ComparisonOperator, StyleExpression, StyleExpression)
    case not(StyleExpression)
    case all([StyleExpression])
    case any([StyleExpression])
    case concat([StyleExpression])
    case upcase(StyleExpression)
    case downcase(StyleExpression)
    case toString(StyleExpression)
    /// The first argument that reads as a number.
    case toNumber([StyleExpression])

    public struct MatchBranch: Sendable, Equatable {
        public let labels: [ExpressionValue]
        public let output: StyleExpression
    }

    public struct CaseBranch: Sendable, Equatable {
        public let test: StyleExpression
        public let output: StyleExpression
    }

    public struct Stop: Sendable, Equatable {
        public let input: Double
        public let output: StyleExpression
    }

    public enum Interpolation: Sendable, Equatable {
        case linear
        /// Exponential with this base: 1 is linear, above 1 the output grows faster towards the end.
        case exponential(Double)
    }

    public enum MathOperator: String, Sendable, CaseIterable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case remainder = "%"
        case power = "^"
        case min, max, abs, round, floor, ceil, sqrt
        case ln
        case log10
    }

    /// The comparisons of object filters, with the same names.
    public typealias ComparisonOperator = Filter.Comparison

    /// The sub-expressions, for walks over the tree.
    var children: [StyleExpression] {
        switch self {
        case .literal, .get, .has, .zoom: return []
        case .match(let input, let branches, let otherwise): return [input] + branches.map(\.output) + [otherwise]
        case .condition(let branches, let otherwise):
            return branches.flatMap { [$0.test, $0.output] } + [otherwise]
        case .step(let input, let first, let stops): return [input, first] + stops.map(\.output)
        case .interpolate(_, let input, let stops): return [input] + stops.map(\.output)
        case .coalesce(let items), .math(_, let items), .all(let items), .any(let items), .concat(let items),
            .toNumber(let items):
            return items
        case .compare(_, let a, let b): return [a, b]
        case .not(let a), .upcase(let a), .downcase(let a), .toString(let a): return [a]
        }
    }

    /// Whether the value can differ from feature to feature (it reads an attribute).
    public var readsAttributes: Bool {
        switch self {
        case .get, .has: return true
        default: return children.contains { $0.readsAttributes }
        }
    }

    /// Whether the value can differ from zoom to zoom.
    public var readsZoom: Bool {
        if case .zoom = self { return true }
        return children.contains { $0.readsZoom }
    }

    /// The attribute names the expression reads, in order of appearance.
    public var attributeNames: [String] {
        switch self {
        case .get(let name), .has(let name): return [name]
        default: return children.flatMap(\.attributeNames)
        }
    }
}

/// The type of value an expression yields, checked when the document is read.
public enum ValueType: Sendable, Equatable, CustomStringConvertible {
    case number, string, boolean, color
    /// Known only for each feature (an attribute's value).
    case value

    public var description: String {
        switch self {
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "colour"
        case .value: return "value"
        }
    }

    /// "a number", "a colour"...
    public var withArticle: String { "a \(description)" }

    /// Whether a value of this type can stand where `expected` is wanted: the same type, or
    /// either side known only per feature (then checked as each feature is drawn).
    func fits(_ expected: ValueType) -> Bool {
        self == expected || self == .value || expected == .value
    }
}
