import Foundation
import Testing

@testable import Raster

@Suite struct FileIOTests {
    @Test func writesAndReplacesWithoutLeavingTemporaries() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.bin"
        try FileIO.writeAtomically([1, 2, 3], toPath: path)
        #expect(try FileIO.readBytes(atPath: path) == [1, 2, 3])
        try FileIO.writeAtomically([9], toPath: path, durable: true)
        #expect(try FileIO.readBytes(atPath: path) == [9])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.bin"])
    }

    @Test func failureNamesThePathAndLeavesNothing() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = directory + "/no/such/dir/out.png"
        #expect(throws: FileError(path: missing, operation: "write", reason: "No such file or directory")) {
            try FileIO.writeAtomically([1], toPath: missing)
        }
        // Renaming over a directory fails after the temporary was written: it must be removed.
        let occupied = directory + "/taken"
        try FileManager.default.createDirectory(atPath: occupied + "/inside", withIntermediateDirectories: true)
        let error = #expect(throws: FileError.self) { try FileIO.writeAtomically([1, 2], toPath: occupied) }
        #expect(error?.path == occupied)
        #expect(error?.description.hasPrefix("cannot write \(occupied): ") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["taken"])
    }

    @Test func readErrors() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: FileError(path: directory, operation: "read", reason: "is a folder, not a regular file")) {
            try FileIO.readBytes(atPath: directory)
        }
        #expect(throws: FileError(path: directory + "/x", operation: "read", reason: "No such file or directory")) {
            try FileIO.readBytes(atPath: directory + "/x")
        }
    }

    @Test func pngWriteIsAtomicAndReadable() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = Image(width: 5, height: 3, fill: RGBA(10, 200, 30, 128))
        try PNG.write(original, toPath: directory + "/a.png")
        #expect(try PNG.decode(contentsOf: directory + "/a.png") == original)
        let error = #expect(throws: PNGError.self) { try PNG.write(original, toPath: directory + "/none/a.png") }
        #expect(error?.description == "\(directory)/none/a.png: cannot write: No such file or directory")
    }
}
