import Geodesy

/// Compact JSON text for a value (used to keep nested attribute values as text).
public enum JSONWriter {
    public static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return DecimalFormat.shortest(n)
        case .string(let s): return JSONText.quoted(s)
        case .array(let items): return "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.quoted($0.key) + ":" + text($0.value) }.joined(separator: ",") + "}"
        }
    }
}
