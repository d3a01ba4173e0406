import Testing

@testable import MapModel

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), file: "t.json")
    }

    func syntaxError(_ text: String) -> DocumentError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error as? DocumentError
        }
    }

    @Test func parsesValuesInOrder() throws {
        let value = try parse(#"{"b": [1, -2.5e3, true, null], "a": "x\u00e9\ud83d\ude00\n"}"#)
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[0].value == .array([.number(1), .number(-2500), .bool(true), .null]))
        #expect(members[1].value == .string("xé😀\n"))
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        let error = syntaxError("{\n  \"a\": 1,\n  \"b\": tru\n}")
        #expect(error?.file == "t.json")
        #expect(error?.place == "line 3, column 8")
        #expect(error?.message.hasPrefix("malformed JSON") == true)
    }

    @Test func rejectsWhatRFC8259Rejects() {
        for bad in [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "NaN", "[1 2]", "\"a", "{\"a\" 1}", "'a'", "[1] x", "\"\u{01}\"",
        ] {
            #expect(syntaxError(bad) != nil, "accepted \(bad)")
        }
    }

    @Test func duplicateKeysAreErrors() {
        let error = syntaxError(#"{"a": 1, "a": 2}"#)
        #expect(error?.message.contains("duplicate key \"a\"") == true)
    }

    @Test func hugeNumbersAreErrors() {
        #expect(syntaxError("1e999") != nil)
    }
}
