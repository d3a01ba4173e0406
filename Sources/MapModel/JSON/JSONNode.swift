import Geodesy

/// A JSON value together with where it came from (file and JSON path), so that every
/// reading error can say exactly where the problem is.
public struct JSONNode: Sendable {
    public let value: JSONValue
    public let file: String
    /// The JSON path of this value, e.g. `layers[2].marker.size`; empty for the root.
    public let path: String

    public init(value: JSONValue, file: String, path: String = "") {
        self.value = value
        self.file = file
        self.path = path
    }

    public func error(_ message: String) -> DocumentError {
        DocumentError(file: file, place: path.isEmpty ? "top level" : path, message: message)
    }

    private func typeError(_ expected: String) -> DocumentError {
        error("expected \(expected), got \(value.typeDescription)")
    }

    public func string() throws -> String {
        guard case .string(let s) = value else { throw typeError("a string") }
        return s
    }

    public func number() throws -> Double {
        guard case .number(let n) = value else { throw typeError("a number") }
        return n
    }

    public func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw typeError("true or false") }
        return b
    }

    public func integer() throws -> Int {
        let n = try number()
        guard n == n.rounded(), abs(n) < 1e15 else {
            throw error("expected a whole number, got \(DecimalFormat.shortest(n))")
        }
        return Int(n)
    }

    /// A number within a closed range, with a message that states the range.
    public func number(in range: ClosedRange<Double>) throws -> Double {
        let n = try number()
        guard range.contains(n) else {
            throw error(
                "\(DecimalFormat.shortest(n)) is out of range (\(DecimalFormat.shortest(range.lowerBound)) to \(DecimalFormat.shortest(range.upperBound)))"
            )
        }
        return n
    }

    public func array() throws -> [JSONNode] {
        guard case .array(let items) = value else { throw typeError("an array") }
        return items.enumerated().map { JSONNode(value: $1, file: file, path: "\(path)[\($0)]") }
    }

    /// The members of an object. Keys outside `allowed` are rejected, naming the allowed ones.
    public func object(allowed: [String]) throws -> JSONObject {
        guard case .object(let members) = value else { throw typeError("an object") }
        for member in members where !allowed.contains(member.key) {
            throw DocumentError(
                file: file, place: childPath(member.key),
                message:
                    "unknown key \(DocumentError.quote(member.key)) (expected one of: \(allowed.joined(separator: ", ")))"
            )
        }
        return JSONObject(node: self, members: members)
    }

    public var isNull: Bool { value == .null }

    /// The JSON path of member `key` of this object: `layers[2].marker`. A key that would not
    /// read as one path component (empty, with spaces, dots, brackets, quotes or control
    /// characters, or over 80 characters) is shown quoted, so the path stays one short line.
    func childPath(_ key: String) -> String {
        let plain =
            !key.isEmpty && key.count <= DocumentError.maxQuotedCharacters
            && key.unicodeScalars.allSatisfy { scalar in
                scalar.value > 0x20 && !(0x7F...0x9F).contains(scalar.value) && !scalar.properties.isWhitespace
                    && !".[]\"".unicodeScalars.contains(scalar)
            }
        let component = plain ? key : DocumentError.quote(key)
        return path.isEmpty ? component : "\(path).\(component)"
    }
}

/// An object's members, read by key. Absent keys and `null` both read as nil.
public struct JSONObject: Sendable {
    public let node: JSONNode
    let members: [JSONMember]

    public subscript(key: String) -> JSONNode? {
        guard let member = members.first(where: { $0.key == key }), member.value != .null else { return nil }
        return JSONNode(value: member.value, file: node.file, path: node.childPath(key))
    }

    /// The member even when its value is `null` (where null means something, as in filters).
    public func includingNull(_ key: String) -> JSONNode? {
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return JSONNode(value: member.value, file: node.file, path: node.childPath(key))
    }

    public func required(_ key: String) throws -> JSONNode {
        guard let child = self[key] else { throw node.error("missing required key \(DocumentError.quote(key))") }
        return child
    }

    public var keys: [String] { members.map(\.key) }
}
