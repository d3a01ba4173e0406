import Foundation
import Testing

@testable import MapModel

/// Map documents and GeoJSON files are read from regular files within documented sizes
/// (docs/limits.md), and fonts must be files or folders.
@Suite struct InputFileTests {
    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "meridian-inputs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A sparse file of `size` bytes: its size is known at once, nothing is stored.
    private func sparseFile(_ path: String, size: Int) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(size)) == 0)
    }

    /// The file used to be read whole before its first byte was parsed (a 1 GB file took
    /// 2.1 GB); now its size is refused before reading.
    @Test func documentsOverSixteenMebibytesAreRefusedUnread() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.json"
        try sparseFile(path, size: (16 << 20) + 1)
        #expect(
            throws: DocumentError(
                file: path, place: "", message: "is 16777217 bytes, more than the limit of 16 MiB")
        ) { try MapDocument.load(path: path) }
    }

    /// GeoJSON is streamed, so its size is not limited; a folder is still refused.
    @Test func geoJSONMustBeARegularFile() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: DocumentError(file: directory, place: "", message: "is a folder, not a regular file")) {
            try GeoJSONReader.read(path: directory)
        }
    }

    /// A FIFO named as a font used to pass the document check and block the renderer forever.
    @Test func aFontMustBeAFileOrAFolder() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/font.ttf", 0o600) == 0)
        let text = #"{"fonts": ["font.ttf"], "layers": []}"#
        let node = JSONNode(value: try JSONParser.parse(Array(text.utf8), file: "map.json"), file: "map.json")
        #expect(
            throws: DocumentError(
                file: "map.json", place: "fonts[0]",
                message: "\"\(directory)/font.ttf\" is a FIFO (named pipe), not a font file or folder")
        ) { try MapDocument.decode(node, baseDirectory: directory) }
        try Data().write(to: URL(fileURLWithPath: directory + "/real.ttf"))
        let good = #"{"fonts": ["real.ttf", "."], "layers": []}"#
        let goodNode = JSONNode(value: try JSONParser.parse(Array(good.utf8), file: "map.json"), file: "map.json")
        #expect(try MapDocument.decode(goodNode, baseDirectory: directory).fonts.count == 2)
    }
}
