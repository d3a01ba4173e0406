import Testing

@testable import MapModel

/// Input echoed in a message is quoted, escaped and cut, so that every error stays one short
/// line (found by fuzzing: a key holding a newline split the message in two).
@Suite struct MessageQuotingTests {
    private func error(_ text: String) -> String {
        do {
            let value = try JSONParser.parse(Array(text.utf8), file: "map.json")
            _ = try MapDocument.decode(JSONNode(value: value, file: "map.json"), baseDirectory: "/data")
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test func controlCharactersInKeysAreEscaped() {
        #expect(
            error(#"{"a\nb": 1, "a\nb": 2}"#)
                == #"map.json: line 1, column 13: malformed JSON: duplicate key "a\nb""#)
        #expect(
            error(#"{"\b\f", 1}"#)
                == #"map.json: line 1, column 8: malformed JSON: expected ':' after key "\u0008\u000c""#)
        #expect(
            error(#"{"layers": [], "x\ty": 1}"#).hasPrefix(#"map.json: "x\ty": unknown key "x\ty" (expected one of: "#))
    }

    @Test func longValuesAreCutAtEightyCharacters() {
        let colour = String(repeating: "z", count: 10_000_000)
        let message = error(#"{"background": "\#(colour)", "layers": []}"#)
        #expect(
            message == "map.json: background: \"\(String(repeating: "z", count: 80))\"... (10000000 characters) "
                + "is not a colour (use #rrggbb, #rrggbbaa or a CSS colour name)")
        #expect(DocumentError.quote("short") == "\"short\"")
        #expect(DocumentError.quote("tab\there\u{1}") == #""tab\there\u0001""#)
    }

    @Test func keysThatAreNotWordsAreQuotedInPaths() {
        let long = String(repeating: "k", count: 100)
        #expect(
            error(#"{"layers": [{"name": "a", "source": "s", "line": {}, "\#(long)": 1}]}"#).hasPrefix(
                "map.json: layers[0].\"\(String(repeating: "k", count: 80))\"... (100 characters): unknown key"))
        #expect(error(#"{"layers": [], "a.b": 1}"#).hasPrefix(#"map.json: "a.b": unknown key "a.b""#))
    }
}
