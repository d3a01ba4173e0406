import FileInput
import Foundation
import Testing

@Suite struct LineReaderTests {
    /// Every line `bytes` holds, read through a file descriptor as standard input would be.
    private func lines(_ bytes: [UInt8], maxLength: Int) throws -> [LineReader.Line] {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/in"))
        let file = try ReadableFile(path: folder + "/in")
        var reader = LineReader(descriptor: file.descriptor, maxLength: maxLength)
        var result: [LineReader.Line] = []
        while let line = try reader.next() { result.append(line) }
        return result
    }

    @Test func splitsOnNewlinesAndDropsCarriageReturns() throws {
        #expect(
            try lines(Array("a b\r\n\nlast".utf8), maxLength: 10) == [.text("a b"), .text(""), .text("last")])
        #expect(try lines([], maxLength: 10) == [])
        #expect(try lines(Array("x\n".utf8), maxLength: 10) == [.text("x")])
    }

    /// The limit counts the bytes of the line without its ending; "\r\n" costs nothing.
    @Test func aLineAtTheLimitIsKeptOneByteMoreIsNot() throws {
        let ten = String(repeating: "7", count: 10)
        #expect(
            try lines(Array("\(ten)\n\(ten)\r\n\(ten)1\n\(ten)".utf8), maxLength: 10) == [
                .text(ten), .text(ten), .tooLong, .text(ten),
            ])
        #expect(try lines(Array("\(ten)1".utf8), maxLength: 10) == [.tooLong])
        #expect(try lines(Array("\(ten)1\r\n".utf8), maxLength: 10) == [.tooLong])
    }

    /// 10 MB without a newline (as from /dev/zero) is one `.tooLong`, and the next line is read.
    @Test func anEndlessLineIsReportedOnceAndReadingGoesOn() throws {
        let input = [UInt8](repeating: 0, count: 10_000_000) + Array("\n31U\nok\n".utf8)
        #expect(try lines(input, maxLength: 4096) == [.tooLong, .text("31U"), .text("ok")])
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        #expect(try lines([0x61, 0xFF, 0x62, 0x0A], maxLength: 10) == [.text("a\u{FFFD}b")])
    }
}
