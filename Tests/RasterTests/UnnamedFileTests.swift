import Foundation
import TestSupport
import Testing

@testable import Raster

/// `AtomicFile.createNew`: a file written unnamed and linked under its name when complete.
@Suite struct UnnamedFileTests {
    static let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    static func mode(of path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : 0
    }

    @Test func aNewFileHoldsTheBytesAndNothingElseIsLeft() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        #expect(try AtomicFile.createNew(path: folder + "/t.png", bytes: Self.bytes) == .written)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/t.png"))) == Self.bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["t.png"])
        // The permissions of a file created the ordinary way (open with O_CREAT, 0666).
        let plain = open(folder + "/plain", O_WRONLY | O_CREAT | O_EXCL, 0o666)
        #expect(plain >= 0)
        close(plain)
        #expect(Self.mode(of: folder + "/t.png") == Self.mode(of: folder + "/plain"))
        // An empty file too.
        #expect(try AtomicFile.createNew(path: folder + "/empty", bytes: []) == .written)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/empty")).isEmpty)
    }

    @Test func whateverHasTheNameIsLeftAlone() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        try FileManager.default.createDirectory(atPath: folder + "/folder", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/file")
        for name in ["file", "folder", "link"] {
            #expect(try AtomicFile.createNew(path: folder + "/" + name, bytes: Self.bytes) == .exists, "\(name)")
        }
        #expect(try String(contentsOfFile: folder + "/file", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/folder").isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link") == folder + "/file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["file", "folder", "link"])
    }

    @Test func aMissingFolderIsNamed() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        #expect {
            try AtomicFile.createNew(path: folder + "/gone/t.png", bytes: Self.bytes)
        } throws: { "\($0)".contains(folder + "/gone/t.png") && "\($0)".contains("does not exist") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// procfs has no unnamed files: the caller is told to write the file another way.
    @Test func aFilesystemWithoutUnnamedFilesSaysSo() throws {
        #expect(try AtomicFile.createNew(path: "/proc/meridian-unnamed-test", bytes: Self.bytes) == .unsupported)
        #expect(!FileManager.default.fileExists(atPath: "/proc/meridian-unnamed-test"))
    }
}
