import Foundation
import TestSupport
import Testing

@testable import Raster

@Suite struct FileIOTests {
    @Test func writesAndReplacesWithoutLeavingTemporaries() throws {
        let directory = try scratchDirectory()
        defer { TemporaryFolder.remove(directory) }
        let path = directory + "/out.bin"
        try FileIO.writeAtomically([1, 2, 3], toPath: path)
        #expect(try FileIO.readBytes(atPath: path) == [1, 2, 3])
        try FileIO.writeAtomically([9], toPath: path, durable: true)
        #expect(try FileIO.readBytes(atPath: path) == [9])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.bin"])
    }

    @Test func failureNamesThePathAndLeavesNothing() throws {
        let directory = try scratchDirectory()
        defer { TemporaryFolder.remove(directory) }
        let missing = directory + "/no/such/dir/out.png"
        #expect(
            throws: FileError(
                path: missing, operation: "write", reason: "the folder \(directory)/no/such/dir does not exist")
        ) {
            try FileIO.writeAtomically([1], toPath: missing)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
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
        defer { TemporaryFolder.remove(directory) }
        let original = Image(width: 5, height: 3, fill: RGBA(10, 200, 30, 128))
        try PNG.write(original, toPath: directory + "/a.png")
        #expect(try PNG.decode(contentsOf: directory + "/a.png") == original)
        let error = #expect(throws: PNGError.self) { try PNG.write(original, toPath: directory + "/none/a.png") }
        #expect(
            error?.description == "\(directory)/none/a.png: cannot write: the folder \(directory)/none does not exist")
    }

    /// Only a regular file (or nothing) may be replaced: renaming over a directory, a device
    /// node or a symbolic link would replace that, not write a file.
    @Test func refusesTargetsThatAreNotRegularFiles() throws {
        let directory = try scratchDirectory()
        defer { TemporaryFolder.remove(directory) }
        let folder = directory + "/taken"
        try FileManager.default.createDirectory(atPath: folder + "/inside", withIntermediateDirectories: true)
        try FileIO.writeAtomically([7], toPath: directory + "/target")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "target")
        // A named pipe stands for device nodes: not a regular file, and safe to aim at.
        #expect(mkfifo(directory + "/pipe", 0o600) == 0)
        for (path, reason) in [
            (folder, "it is a directory"), (directory + "/link", "it is a symbolic link"),
            (directory + "/pipe", "it is not a regular file"), (directory + "/", "the output needs a file name"),
        ] {
            #expect(throws: FileError(path: path, operation: "write", reason: reason)) {
                try FileIO.writeAtomically([1, 2], toPath: path)
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
                "link", "pipe", "taken", "target",
            ])
        #expect(try FileIO.readBytes(atPath: directory + "/link") == [7])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["inside"])
    }

    @Test func uncommittedFileLeavesNothingAndCommitReplaces() throws {
        let directory = try scratchDirectory()
        defer { TemporaryFolder.remove(directory) }
        let path = directory + "/out.txt"
        try FileIO.writeAtomically(Array("old".utf8), toPath: path)
        do {
            let file = try AtomicFile(path: path)
            try file.append(Array("half".utf8))
            #expect(FileManager.default.fileExists(atPath: file.temporaryPath))
            #expect(file.temporaryPath.hasPrefix(directory + "/.out.txt.") && file.temporaryPath.hasSuffix(".tmp"))
        }
        // Dropped without a commit: the temporary is gone, the old content stays.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.txt"])
        #expect(try FileIO.readBytes(atPath: path) == Array("old".utf8))

        let staging = directory + "/staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        let file = try AtomicFile(path: path, temporaryFolder: staging)
        #expect(file.temporaryPath.hasPrefix(staging + "/"))
        try file.append(Array("new".utf8))
        try file.commit(durable: true)
        #expect(throws: FileError.self) { try file.commit() }
        #expect(try FileIO.readBytes(atPath: path) == Array("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
    }
}
