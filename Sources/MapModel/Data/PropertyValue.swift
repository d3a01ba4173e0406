import Geodesy

/// A feature attribute value. Nested objects and arrays are kept as their JSON text.
public enum PropertyValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)

    /// Equality as users expect in filters: numbers compare numerically, and a string that
    /// holds a number equals that number (attribute tables often store numbers as text).
    public func isEqual(to other: PropertyValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a == b
        case (.number(let a), .string(let b)), (.string(let b), .number(let a)): return Double(b) == a
        default: return self == other
        }
    }

    /// Ordering for `<`, `>`: numbers numerically (numeric strings too), strings by code
    /// points; nil when the two cannot be ordered (then the filter does not match).
    public func compare(to other: PropertyValue) -> Int? {
        if let a = numericValue, let b = other.numericValue { return a < b ? -1 : (a > b ? 1 : 0) }
        if case .string(let a) = self, case .string(let b) = other {
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : (a == b ? 0 : 1)
        }
        return nil
    }

    var numericValue: Double? {
        switch self {
        case .number(let n): return n
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    /// The text a label shows for this value: whole numbers without a decimal point.
    public var labelText: String? {
        switch self {
        case .null: return nil
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return DecimalFormat.shortest(n)
        case .string(let s): return s
        }
    }
}

/// A feature's attributes. A small sorted array rather than a dictionary: features have few
/// attributes, and this keeps memory low and iteration order deterministic.
public struct Properties: Sendable, Equatable {
    public private(set) var entries: [(key: String, value: PropertyValue)]

    public init(_ entries: [(key: String, value: PropertyValue)] = []) {
        // Readers give a table's columns in one order, most often already sorted: then the
        // stable sort would give them back as they are, in a new array made per feature.
        var ordered = true
        for i in entries.indices.dropFirst() where entries[i].key < entries[i - 1].key {
            ordered = false
            break
        }
        self.entries = ordered ? entries : entries.sorted { $0.key < $1.key }
    }

    public subscript(key: String) -> PropertyValue? {
        entries.first { $0.key == key }?.value
    }

    public static func == (lhs: Properties, rhs: Properties) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
