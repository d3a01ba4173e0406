/// A condition on feature attributes, deciding which features a layer draws.
///
/// In the document: `{"property": "pop_est", ">=": 1000000}`, with one operator among
/// `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `notIn` (arrays) and `exists` (true/false),
/// or the combinations `{"all": [...]}`, `{"any": [...]}`, `{"not": {...}}`; or a boolean
/// expression, `["<", ["get", "rank"], ["step", ["zoom"], 2, 6, 4, 10, 9]]`.
public indirect enum Filter: Sendable, Equatable {
    public enum Comparison: String, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="

        /// Whether the comparison holds between two values that are `equal` or not and in
        /// `order` (negative, zero, positive; nil when they cannot be ordered).
        func holds(equal: Bool, order: Int?) -> Bool {
            switch self {
            case .equal: return equal
            case .notEqual: return !equal
            case .less: return order.map { $0 < 0 } ?? false
            case .lessOrEqual: return order.map { $0 <= 0 } ?? false
            case .greater: return order.map { $0 > 0 } ?? false
            case .greaterOrEqual: return order.map { $0 >= 0 } ?? false
            }
        }
    }

    case compare(property: String, Comparison, PropertyValue)
    case isIn(property: String, [PropertyValue])
    case notIn(property: String, [PropertyValue])
    case exists(property: String, Bool)
    case all([Filter])
    case any([Filter])
    case not(Filter)
    case expression(StyleExpression)

    /// Whether a feature with these attributes passes, in a view at `zoom`.
    public func matches(_ properties: Properties, zoom: Double) -> Bool {
        switch self {
        case .compare(let property, let comparison, let value):
            let actual = properties[property] ?? .null
            return comparison.holds(equal: actual.isEqual(to: value), order: actual.compare(to: value))
        case .isIn(let property, let values):
            let actual = properties[property] ?? .null
            return values.contains { actual.isEqual(to: $0) }
        case .notIn(let property, let values):
            let actual = properties[property] ?? .null
            return !values.contains { actual.isEqual(to: $0) }
        case .exists(let property, let wanted):
            let present = (properties[property] ?? .null) != .null
            return present == wanted
        case .all(let filters): return filters.allSatisfy { $0.matches(properties, zoom: zoom) }
        case .any(let filters): return filters.contains { $0.matches(properties, zoom: zoom) }
        case .not(let filter): return !filter.matches(properties, zoom: zoom)
        case .expression(let expression):
            return expression.evaluate(EvaluationContext(zoom: zoom, properties: properties)).bool == true
        }
    }

    /// The attribute names it reads.
    public var attributeNames: [String] {
        switch self {
        case .compare(let property, _, _), .isIn(let property, _), .notIn(let property, _),
            .exists(let property, _):
            return [property]
        case .all(let filters), .any(let filters): return filters.flatMap(\.attributeNames)
        case .not(let filter): return filter.attributeNames
        case .expression(let expression): return expression.attributeNames
        }
    }
}
