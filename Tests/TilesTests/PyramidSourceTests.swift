import Foundation
import Raster
import TestSupport
import Testing

@testable import Tiles

/// A directory pyramid lists its z/x/y.png tiles; a folder it cannot read is an error, so
/// that an unreadable pyramid never compares as an empty one.
@Suite struct PyramidSourceTests {
    @Test func listsTilesAndPassesOverOtherNames() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/2/1", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/notes", withIntermediateDirectories: true)
        for name in ["2/1/3.png", "2/1/0.png", "2/1/readme.txt", "2/1/9.png", "4", "2/7"] {
            try FileIO.writeAtomically([1], toPath: root + "/" + name)
        }
        // 9 is past zoom 2's last row; 4 and 2/7 are files where folders would be.
        #expect(
            try DirectoryPyramid(root: root).tileIDs() == [TileID(z: 2, x: 1, y: 0), TileID(z: 2, x: 1, y: 3)])
        #expect(try DirectoryPyramid(root: root, scheme: .tms).tileIDs().map(\.y) == [0, 3])
    }

    @Test func anUnreadableFolderIsAnError() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/1/0", withIntermediateDirectories: true)
        try FileIO.writeAtomically([1], toPath: root + "/1/0/0.png")
        // A link to itself cannot be opened, whoever runs the test (root reads any folder).
        try FileManager.default.createSymbolicLink(atPath: root + "/1/1", withDestinationPath: "1")
        #expect(throws: TilesError.io(path: root + "/1/1", message: "Too many levels of symbolic links")) {
            try DirectoryPyramid(root: root).tileIDs()
        }
        let file = root + "/1/0/0.png"
        #expect(throws: TilesError.io(path: file, message: "cannot list the folder: Not a directory")) {
            try DirectoryPyramid(root: file).tileIDs()
        }
    }
}
