import Foundation
import Raster
import TestSupport
import Testing

@testable import Tiles

/// How the directory sink's files come into being: new tiles unnamed in their own folder,
/// tiles that replace a file through the staging folder.
@Suite struct DirectorySinkFilesTests {
    static func tile(z: Int, x: Int, y: Int, byte: UInt8 = 7) -> EncodedTile {
        let data = [UInt8](repeating: byte, count: 100 + y)
        return EncodedTile(tile: TileID(z: z, x: x, y: y), data: data, dataHash: ContentHash(of: data))
    }

    /// The staging folder is missing, so only a file written without it can succeed: new
    /// files are, a file over an existing one is not (and the error names it).
    @Test func newTilesAreNotStagedReplacedOnesAre() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let column = try OpenFolder(path: root).subfolder("3/5", create: true)
        let writers = TileFileWriters(threads: 3, staging: root + "/missing")
        for first in stride(from: 0, to: 40, by: 8) {
            try writers.submit(
                (first..<first + 8).map { y in
                    .init(folder: column, name: "\(y).png", data: [UInt8](repeating: UInt8(y), count: 300))
                })
        }
        try writers.finish()
        #expect(writers.statistics.tiles == 40 && writers.statistics.bytes == 12_000)
        let files = try FileTree.files(under: root)
        #expect(files.count == 40)
        for y in 0..<40 { #expect(files["3/5/\(y).png"] == [UInt8](repeating: UInt8(y), count: 300)) }

        let again = TileFileWriters(threads: 1, staging: root + "/missing")
        try? again.submit([.init(folder: column, name: "7.png", data: [1, 2, 3])])
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

    /// A column's folder is opened once and its later tiles are made from that descriptor:
    /// moved away between two batches, the folder still receives the column's tiles.
    @Test func aColumnsFolderIsOpenedOnceForItsTiles() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let sink = try DirectorySink(root: root, scheme: .xyz, writers: 2)
        try sink.write((0..<4).map { Self.tile(z: 3, x: 5, y: $0) })
        try sink.write([Self.tile(z: 3, x: 6, y: 0)])
        #expect(rename(root + "/3/5", root + "/3/moved") == 0)
        try sink.write((4..<8).map { Self.tile(z: 3, x: 5, y: $0) } + [Self.tile(z: 3, x: 6, y: 1)])
        try sink.finish()
        #expect(sink.statistics.tiles == 10)
        let files = try FileTree.files(under: root)
        #expect(files.keys.sorted() == ((0..<8).map { "3/moved/\($0).png" } + ["3/6/0.png", "3/6/1.png"]).sorted())
        #expect(files["3/moved/6.png"] == Self.tile(z: 3, x: 5, y: 6).data)
    }

    /// More columns than the sink holds open: the folders closed to make room are opened
    /// again when their columns come back, and every tile lands where it belongs.
    @Test func columnsBeyondTheOpenLimitAreReopened() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let sink = try DirectorySink(root: root, scheme: .tms, writers: 3)
        let columns = DirectorySink.openColumnLimit + 20
        for y in [1, 0] { try sink.write((0..<columns).map { Self.tile(z: 9, x: $0, y: y, byte: UInt8($0 % 251)) }) }
        try sink.finish()
        let files = try FileTree.files(under: root)
        #expect(files.count == 2 * columns)
        for x in [0, 7, columns - 1] {
            // TMS rows: tile row y is 511 - y.
            #expect(files["9/\(x)/510.png"] == Self.tile(z: 9, x: x, y: 1, byte: UInt8(x % 251)).data)
            #expect(files["9/\(x)/511.png"] == Self.tile(z: 9, x: x, y: 0, byte: UInt8(x % 251)).data)
        }
    }

    /// A file where a column's folder must go fails the write, naming the folder; nothing
    /// is left but what was there and the marker of an incomplete pyramid.
    @Test func aFileInTheWayOfAColumnIsNamed() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/3"))
        let sink = try DirectorySink(root: root, scheme: .xyz, writers: 1)
        #expect {
            try sink.write([Self.tile(z: 3, x: 5, y: 0)])
        } throws: { "\($0)".contains(root + "/3/5") && "\($0)".contains("folder") }
        try sink.abandon()
        #expect(try FileTree.paths(under: root).sorted() == [".meridian-incomplete", "3"])
    }
}
