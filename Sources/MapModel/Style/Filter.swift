/// A condition on feature attributes, deciding which features a layer draws.
///
/// In the document: `{"property": "pop_est", ">=": 1000000}`, with one operator among
/// `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `notIn` (arrays) and `exists` (true/false),
/// or the combinations `{"all": [...]}`, `{"any": [...]}`, `{"not": {...}}`.
public indirect enum Filter: Sendable, Equatable {
    public enum Comparison: String, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    case compare(property: String, Comparison, PropertyValue)
    case isIn(property: String, [PropertyValue])
    case notIn(property: String, [PropertyValue])
    case exists(property: String, Bool)
    case all([Filter])
    case any([Filter])
    case not(Filter)

    public func matches(_ properties: Properties) -> Bool {
        switch self {
        case .compare(let property, let comparison, let value):
            let actual = properties[property] ?? .null
            switch comparison {
            case .equal: return actual.isEqual(to: value)
            case .notEqual: return !actual.isEqual(to: value)
            case .less: return actual.compare(to: value).map { $0 < 0 } ?? false
            case .lessOrEqual: return actual.compare(to: value).map { $0 <= 0 } ?? false
            case .greater: return actual.compare(to: value).map { $0 > 0 } ?? false
            case .greaterOrEqual: return actual.compare(to: value).map { $0 >= 0 } ?? false
            }
        case .isIn(let property, let values):
            let actual = properties[property] ?? .null
            return values.contains { actual.isEqual(to: $0) }
        case .notIn(let property, let values):
            let actual = properties[property] ?? .null
            return !values.contains { actual.isEqual(to: $0) }
        case .exists(let property, let wanted):
            let present = (properties[property] ?? .null) != .null
            return present == wanted
        case .all(let filters): return filters.allSatisfy { $0.matches(properties) }
        case .any(let filters): return filters.contains { $0.matches(properties) }
        case .not(let filter): return !filter.matches(properties)
        }
    }
}
