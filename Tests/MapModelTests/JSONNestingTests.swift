import Foundation
import Testing

@testable import MapModel

/// The nesting limit (100 levels, docs/limits.md) keeps the recursive parser's stack bounded:
/// the deepest document parses on a thread with a 512 KiB stack (secondary threads' size on
/// macOS). At the former limit of 512 levels this test crashed a debug build (stack overflow).
@Suite struct JSONNestingTests {
    private func parseOnSmallStack(_ text: String) -> Result<JSONValue, DocumentError> {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { () throws(DocumentError) in
                do { return try JSONParser.parse(Array(text.utf8), file: "deep.json") } catch {
                    throw error as! DocumentError
                }
            }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        return box.result!
    }

    @Test func oneHundredLevelsParseOneHundredOneDoNot() throws {
        let arrays = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try parseOnSmallStack(arrays).get() != .null)
        let objects = String(repeating: #"{"a":"#, count: 99) + "[]" + String(repeating: "}", count: 99)
        #expect(try parseOnSmallStack(objects).get() != .null)
        let deeper = String(repeating: "[", count: 101) + String(repeating: "]", count: 101)
        #expect(
            throws: DocumentError(
                file: "deep.json", place: "line 1, column 101",
                message: "malformed JSON: nesting deeper than 100 levels")
        ) {
            try parseOnSmallStack(deeper).get()
        }
    }
}

private final class ResultBox: @unchecked Sendable {
    var result: Result<JSONValue, DocumentError>?
}
