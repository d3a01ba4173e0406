/// A parsed JSON value. Objects keep their key order and the position of every member,
/// so that error messages can point into the file.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The JSON type name used in error messages ("a number", "an object", ...).
    public var typeDescription: String { kind.typeDescription }

    public var kind: JSONStream.Kind {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }
}

extension JSONStream.Kind {
    /// The type name error messages use ("a number", "an object", ...), for parsed values and
    /// streamed ones alike.
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

public struct JSONMember: Sendable, Equatable {
    public let key: String
    public let value: JSONValue
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
