import Foundation
import Raster
import TestSupport
import Testing

@testable import Tiles

/// How the directory sink's files come into being: new tiles unnamed in their own folder,
/// tiles that replace a file through the staging folder.
@Suite struct DirectorySinkFilesTests {
    /// The staging folder is missing, so only a file written without it can succeed: new
    /// files are, a file over an existing one is not (and the error names it).
    @Test func newTilesAreNotStagedReplacedOnesAre() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        try FileManager.default.createDirectory(atPath: root + "/3/5", withIntermediateDirectories: true)
        let writers = TileFileWriters(threads: 3, staging: root + "/missing")
        for y in 0..<40 {
            try writers.submit(path: root + "/3/5/\(y).png", data: [UInt8](repeating: UInt8(y), count: 300))
        }
        try writers.finish()
        #expect(writers.statistics.tiles == 40 && writers.statistics.bytes == 12_000)
        let files = try FileTree.files(under: root)
        #expect(files.count == 40)
        for y in 0..<40 { #expect(files["3/5/\(y).png"] == [UInt8](repeating: UInt8(y), count: 300)) }

        let again = TileFileWriters(threads: 1, staging: root + "/missing")
        try? again.submit(path: root + "/3/5/7.png", data: [1, 2, 3])
        #expect {
            try again.finish()
        } throws: { "\($0)".contains("/3/5/7.png") && "\($0)".contains(root + "/missing") }
        #expect(try FileTree.files(under: root)["3/5/7.png"] == [UInt8](repeating: 7, count: 300))
    }

    /// A job run again over its output (no --resume) rewrites every tile: changed and
    /// missing ones come back as a fresh job writes them, and nothing else is left.
    @Test func aJobRunAgainRewritesItsOutput() throws {
        let reference = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(reference) }
        try TileJobTests.run(DirectorySink(root: reference, scheme: .xyz))
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        try TileJobTests.run(DirectorySink(root: root, scheme: .xyz))
        for name in ["0/0/0.png", "3/5/2.png", "5/31/17.png"] {
            try Data("not a tile".utf8).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        #expect(unlink(root + "/4/9/3.png") == 0)
        let summary = try TileJobTests.run(DirectorySink(root: root, scheme: .xyz))
        #expect(summary.tiles == TileJobTests.pyramid.tileCount && summary.skipped == 0)
        #expect(try FileTree.files(under: root) == (try FileTree.files(under: reference)))
        #expect(try FileTree.paths(under: root).allSatisfy { $0.first!.isNumber && !$0.hasSuffix(".tmp") })
    }
}
