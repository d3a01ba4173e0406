/// A style key's value: a constant, or an expression of the zoom and the feature's
/// attributes with the key's default for features where it yields nothing usable.
public enum StyleValue<Value: StyleValueType>: Sendable, Equatable {
    case constant(Value)
    case expression(StyleExpression, fallback: Value)

    /// The value for one feature at one zoom.
    public func value(_ context: EvaluationContext) -> Value {
        switch self {
        case .constant(let value): return value
        case .expression(let expression, let fallback):
            return Value(expression.evaluate(context)) ?? fallback
        }
    }

    /// The value where it does not depend on the feature, for features at `zoom`: a constant
    /// when the expression reads no attribute, so that a view evaluates it once.
    public func at(zoom: Double) -> StyleValue {
        guard case .expression(let expression, let fallback) = self, !expression.readsAttributes else { return self }
        return .constant(Value(expression.evaluate(EvaluationContext(zoom: zoom))) ?? fallback)
    }

    /// The constant, if it is one.
    public var constant: Value? {
        if case .constant(let value) = self { return value }
        return nil
    }

    /// Whether it can differ from feature to feature (a constant or an expression of the
    /// zoom alone is the same for every feature of a view).
    public var readsAttributes: Bool {
        if case .expression(let expression, _) = self { return expression.readsAttributes }
        return false
    }

    /// The attribute names its expression reads.
    public var attributeNames: [String] {
        if case .expression(let expression, _) = self { return expression.attributeNames }
        return []
    }
}

/// A type a style key holds, and how it is read from an expression's value.
public protocol StyleValueType: Sendable, Equatable {
    static var valueType: ValueType { get }
    init?(_ value: ExpressionValue)
}

extension Double: StyleValueType {
    public static var valueType: ValueType { .number }
    public init?(_ value: ExpressionValue) {
        guard let n = value.number else { return nil }
        self = n
    }
}

extension Color: StyleValueType {
    public static var valueType: ValueType { .color }
    public init?(_ value: ExpressionValue) {
        guard let c = value.color else { return nil }
        self = c
    }
}

extension String: StyleValueType {
    public static var valueType: ValueType { .string }
    /// Any value reads as text (numbers as labels write them); null is no text.
    public init?(_ value: ExpressionValue) {
        guard value != .null else { return nil }
        self = value.text
    }
}

extension Bool: StyleValueType {
    public static var valueType: ValueType { .boolean }
    public init?(_ value: ExpressionValue) {
        guard let b = value.bool else { return nil }
        self = b
    }
}

extension StyleValue where Value == Double {
    /// The largest magnitude the value can take at `zoom` (for how far a symbol can reach),
    /// or nil when it depends on attributes in a way no literal bounds (arithmetic on them).
    public func largestMagnitude(zoom: Double) -> Double? {
        switch at(zoom: zoom) {
        case .constant(let value): return Swift.abs(value)
        case .expression(let expression, let fallback):
            return expression.largestOutput(zoom: zoom).map { Swift.max($0, Swift.abs(fallback)) }
        }
    }
}

extension StyleExpression {
    /// The largest magnitude among the numbers an expression can yield, when they are chosen
    /// among literal outputs (match, case, step, interpolate, coalesce over literals); nil
    /// otherwise.
    func largestOutput(zoom: Double) -> Double? {
        func largest(_ items: [StyleExpression]) -> Double? {
            var result = 0.0
            for item in items {
                guard let value = item.largestOutput(zoom: zoom) else { return nil }
                result = Swift.max(result, value)
            }
            return result
        }
        switch self {
        case .literal(let value): return value.number.map(Swift.abs) ?? 0
        case .match(_, let branches, let otherwise): return largest(branches.map(\.output) + [otherwise])
        case .condition(let branches, let otherwise): return largest(branches.map(\.output) + [otherwise])
        case .step(_, let first, let stops): return largest([first] + stops.map(\.output))
        case .interpolate(_, _, let stops): return largest(stops.map(\.output))
        case .coalesce(let items): return largest(items)
        default:
            guard !readsAttributes else { return nil }
            return evaluate(EvaluationContext(zoom: zoom)).number.map(Swift.abs) ?? 0
        }
    }
}
