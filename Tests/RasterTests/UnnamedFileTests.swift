import Foundation
import TestSupport
import Testing

@testable import Raster

/// `AtomicFile.createNew`: a file written unnamed in an open folder and linked under its name
/// when complete.
@Suite struct UnnamedFileTests {
    static let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    static func mode(of path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : 0
    }

    static func createNew(_ path: String, bytes: [UInt8] = bytes) throws -> AtomicFile.NewFile {
        try AtomicFile.createNew(
            named: String(path.split(separator: "/").last!), in: OpenFolder(path: AtomicFile.folder(of: path)),
            bytes: bytes)
    }

    @Test func aNewFileHoldsTheBytesAndNothingElseIsLeft() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        #expect(try Self.createNew(folder + "/t.png") == .written)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/t.png"))) == Self.bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["t.png"])
        // The permissions of a file created the ordinary way (open with O_CREAT, 0666).
        let plain = open(folder + "/plain", O_WRONLY | O_CREAT | O_EXCL, 0o666)
        #expect(plain >= 0)
        close(plain)
        #expect(Self.mode(of: folder + "/t.png") == Self.mode(of: folder + "/plain"))
        // An empty file too.
        #expect(try Self.createNew(folder + "/empty", bytes: []) == .written)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/empty")).isEmpty)
    }

    @Test func whateverHasTheNameIsLeftAlone() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        try FileManager.default.createDirectory(atPath: folder + "/folder", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/file")
        for name in ["file", "folder", "link"] {
            #expect(try Self.createNew(folder + "/" + name) == .exists, "\(name)")
        }
        #expect(try String(contentsOfFile: folder + "/file", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/folder").isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link") == folder + "/file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["file", "folder", "link"])
    }

    /// A folder that is missing, or goes after it was opened, or is a file, is named.
    @Test func aMissingFolderIsNamed() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        #expect {
            try OpenFolder(path: folder + "/gone")
        } throws: { "\($0)".contains(folder + "/gone") && "\($0)".contains("does not exist") }
        try FileManager.default.createDirectory(atPath: folder + "/gone", withIntermediateDirectories: false)
        let open = try OpenFolder(path: folder + "/gone")
        #expect(rmdir(folder + "/gone") == 0)
        #expect {
            try AtomicFile.createNew(named: "t.png", in: open, bytes: Self.bytes)
        } throws: { "\($0)".contains(folder + "/gone/t.png") && "\($0)".contains("does not exist") }
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        for name in ["file", "file/3"] {
            #expect {
                try OpenFolder(path: folder).subfolder(name, create: true)
            } throws: { "\($0)".contains(folder + "/" + name) && "\($0)".contains("not a folder") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file"])
    }

    /// procfs has no unnamed files: the caller is told to write the file another way.
    @Test func aFilesystemWithoutUnnamedFilesSaysSo() throws {
        #expect(try Self.createNew("/proc/meridian-unnamed-test") == .unsupported)
        #expect(!FileManager.default.fileExists(atPath: "/proc/meridian-unnamed-test"))
    }

    /// Both ways of naming the file (its descriptor, its /proc name) give the same file, and
    /// neither replaces what has the name.
    @Test func linkedByDescriptorOrThroughProc() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        let open = try OpenFolder(path: folder)
        for (name, byDescriptor) in [("a", true), ("b", false)] {
            #expect(
                try AtomicFile.createNew(named: name, in: open, bytes: Self.bytes, byDescriptor: byDescriptor)
                    == .written)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) == Self.bytes)
            #expect(Self.mode(of: folder + "/" + name) & S_IFMT == S_IFREG)
            #expect(try AtomicFile.createNew(named: name, in: open, bytes: [1], byDescriptor: byDescriptor) == .exists)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a", "b"])
    }

    /// An open folder follows the folder, not its old path; `subfolder` makes what is missing.
    @Test func anOpenFolderFollowsItsFolder() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        let column = try OpenFolder(path: folder).subfolder("3/5", create: true)
        #expect(column.path == folder + "/3/5")
        #expect(rename(folder + "/3/5", folder + "/3/moved") == 0)
        #expect(try AtomicFile.createNew(named: "t.png", in: column, bytes: Self.bytes) == .written)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/3/moved/t.png"))) == Self.bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/3").sorted() == ["moved"])
        // An existing folder is opened as it is; without `create` a missing one is an error.
        #expect(try OpenFolder(path: folder).subfolder("3/moved", create: true).path == folder + "/3/moved")
        #expect(throws: FileError.self) { try OpenFolder(path: folder).subfolder("4/0", create: false) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["3"])
    }
}
