import Foundation
import Geodesy

/// What an expression yields for one feature at one zoom.
public enum ExpressionValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)

    init(_ property: PropertyValue) {
        switch property {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        }
    }

    /// As a number: numbers, and strings that hold one (attribute tables often store numbers
    /// as text); nil for anything else.
    public var number: Double? {
        switch self {
        case .number(let n): return n
        case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// As a colour: colours, and strings that name one.
    public var color: Color? {
        switch self {
        case .color(let c): return c
        case .string(let s): return Color(parsing: s)
        default: return nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// As text: what `to-string` and `concat` make of a value. Numbers are written as labels
    /// write them (whole numbers without a decimal point); null is empty.
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return DecimalFormat.shortest(n)
        case .string(let s): return s
        case .color(let c):
            let parts = [c.red, c.green, c.blue].map { DecimalFormat.shortest(($0 * 255).rounded()) }
            return "rgba(\(parts.joined(separator: ",")),\(DecimalFormat.shortest(c.alpha)))"
        }
    }

    /// Equality as filters use it: numbers numerically, a string holding a number equals
    /// that number.
    func isEqual(to other: ExpressionValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): return a == b
        case (.number, .string), (.string, .number):
            guard let a = number, let b = other.number else { return false }
            return a == b
        default: return self == other
        }
    }

    /// Order for `<` and friends: numbers (and numeric strings) numerically, strings by code
    /// points; nil when the two cannot be ordered.
    func compare(to other: ExpressionValue) -> Int? {
        if let a = number, let b = other.number { return a < b ? -1 : (a > b ? 1 : 0) }
        if case .string(let a) = self, case .string(let b) = other {
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : (a == b ? 0 : 1)
        }
        return nil
    }
}
