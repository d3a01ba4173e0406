/// Label text: literal pieces and attribute references, from either `"attribute": "name"`
/// or a template `"text": "{name} ({pop_est})"`. `{{` and `}}` write literal braces.
public struct LabelText: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case literal(String)
        case attribute(String)
    }

    public let pieces: [Piece]

    public init(pieces: [Piece]) { self.pieces = pieces }

    public static func attribute(_ name: String) -> LabelText { LabelText(pieces: [.attribute(name)]) }

    /// Parses a template; returns a message describing the problem on failure.
    public static func template(_ text: String) -> Result<LabelText, TemplateError> {
        var pieces: [Piece] = []
        var literal = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "{" {
                if index + 1 < characters.count, characters[index + 1] == "{" {
                    literal.append("{")
                    index += 2
                    continue
                }
                guard let close = characters[(index + 1)...].firstIndex(of: "}") else {
                    return .failure(
                        TemplateError(message: "unclosed '{' in label template \(DocumentError.quote(text))"))
                }
                let name = String(characters[(index + 1)..<close])
                guard !name.isEmpty, !name.contains("{") else {
                    return .failure(
                        TemplateError(
                            message: "empty or nested attribute name in label template \(DocumentError.quote(text))"))
                }
                if !literal.isEmpty {
                    pieces.append(.literal(literal))
                    literal = ""
                }
                pieces.append(.attribute(name))
                index = close + 1
            } else if character == "}" {
                guard index + 1 < characters.count, characters[index + 1] == "}" else {
                    return .failure(
                        TemplateError(
                            message:
                                "unmatched '}' in label template \(DocumentError.quote(text)) (write '}}' for a brace)")
                    )
                }
                literal.append("}")
                index += 2
            } else {
                literal.append(character)
                index += 1
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return .success(LabelText(pieces: pieces))
    }

    public struct TemplateError: Error { public let message: String }

    /// The text for one feature. A missing or null attribute makes the whole label empty
    /// (so a template never prints half a label); the renderer skips empty labels.
    public func resolve(_ properties: Properties) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let s): out += s
            case .attribute(let name):
                guard let value = properties[name], let text = value.labelText else { return "" }
                out += text
            }
        }
        return out
    }
}
