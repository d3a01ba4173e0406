import Foundation
import Raster
import TestSupport
import Testing

@testable import Tiles

/// The job pipeline with a stand-in renderer: what is written where, identical tiles encoded
/// once, the same output whatever the workers and metatile size, resume, shards and merge.
@Suite struct TileJobTests {
    static let pyramid = try! TilePyramid(zooms: ZoomRange(min: 0, max: 5))
    static let metadata = TileSetMetadata(
        name: "test", attribution: "someone", pyramid: pyramid,
        format: try! TileFormat(), buffer: 128)

    @discardableResult
    static func run(
        _ sink: any TileSink, workers: Int = 2, metatile: Int = 4, shard: Shard? = nil, resume: Bool = false,
        pyramid: TilePyramid = pyramid, encoder: CountingEncoder = CountingEncoder()
    ) throws -> TileJobSummary {
        let plan = try MetatilePlan(pyramid: pyramid, size: metatile, shard: shard)
        return try TileJob(plan: plan, workers: workers, resume: resume).run(sink: sink, encoder: encoder) {
            PatternRenderer()
        }
    }

    @Test func directoryHoldsEveryTileWithItsOwnPixels() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let summary = try Self.run(DirectorySink(root: root, scheme: .xyz))
        let files = try FileTree.files(under: root)
        #expect(files.count == Self.pyramid.tileCount)
        #expect(summary.tiles == 1365 && summary.skipped == 0)
        for tile in [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 5, y: 2), TileID(z: 5, x: 31, y: 17)] {
            let expected = try CountingEncoder().encode(PatternRenderer.image(of: tile, side: 16))
            #expect(files["\(tile.z)/\(tile.x)/\(tile.y).png"] == expected, "\(tile)")
        }
        // Nothing else: no staging folder, no temporary files.
        #expect(!FileManager.default.fileExists(atPath: root + "/" + DirectorySink.stagingFolder))
    }

    /// Tiles with the same small bytes (the stand-in's ocean, as PNG some 70 bytes) are names
    /// of one file (or of a few: see below); every file still holds its tile's bytes, and a job run again over the
    /// output replaces each name on its own.
    @Test func identicalSmallTilesShareOneFile() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        func run() throws -> [String: [UInt8]] {
            let plan = try MetatilePlan(pyramid: Self.pyramid, size: 4)
            _ = try TileJob(plan: plan, workers: 2).run(
                sink: DirectorySink(root: root, scheme: .xyz), encoder: PNGTileEncoder()
            ) { PatternRenderer() }
            return try FileTree.files(under: root)
        }
        func inode(_ path: String) throws -> (number: Int, links: Int) {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
            return (
                (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1,
                (attributes[.referenceCount] as? NSNumber)?.intValue ?? -1
            )
        }
        let files = try run()
        #expect(files.count == Self.pyramid.tileCount)
        let groups = Dictionary(grouping: files.keys, by: { files[$0]! })
        let ocean = try #require(groups.max { $0.value.count < $1.value.count })
        #expect(ocean.key.count <= TileFileWriters.twinBytes && ocean.value.count > 100)
        // One file, or a few when writer threads met the first ocean tiles at the same moment
        // (each writes its own before any is remembered): at most one per writer thread.
        let names = try Dictionary(grouping: ocean.value, by: { try inode($0).number })
        #expect(
            names.count <= TileFileWriters.defaultThreads, "\(ocean.value.count) ocean tiles in \(names.count) files")
        for (_, sharing) in names { #expect(try inode(sharing[0]).links == sharing.count) }
        // The same bytes as each tile encoded by itself.
        for tile in [TileID(z: 2, x: 1, y: 0), TileID(z: 5, x: 31, y: 17)] {
            let expected = try PNGTileEncoder().encode(PatternRenderer.image(of: tile, side: 16))
            #expect(files["\(tile.z)/\(tile.x)/\(tile.y).png"] == expected, "\(tile)")
        }
        // Run again over it: every name replaced by a rename, the bytes unchanged.
        #expect(try run() == files)
    }

    @Test func tmsSchemeNumbersRowsFromTheSouth() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 3, max: 3))
        try Self.run(DirectorySink(root: root, scheme: .tms), pyramid: pyramid)
        let files = try FileTree.files(under: root)
        let tile = TileID(z: 3, x: 5, y: 1)  // TMS row 8 - 1 - 1 = 6
        #expect(files["3/5/6.png"] == (try CountingEncoder().encode(PatternRenderer.image(of: tile, side: 16))))
    }

    @Test func identicalTilesAreEncodedOnce() throws {
        let encoder = CountingEncoder()
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        let summary = try Self.run(DirectorySink(root: root, scheme: .xyz), workers: 3, encoder: encoder)
        // Distinct images: zoom 0 and 1 (1 + 4), then per zoom >= 2 the odd rows' tiles, plus one ocean.
        let distinct = 1 + 4 + (2...5).reduce(0) { $0 + (1 << $1) * (1 << $1) / 2 } + 1
        #expect(encoder.count.withLock { $0 } == distinct)
        #expect(summary.distinct == distinct)
    }

    @Test func sameBytesWhateverWorkersAndMetatiles() throws {
        var outputs: [[String: [UInt8]]] = []
        for (workers, metatile) in [(1, 1), (2, 8), (4, 3)] {
            let root = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(root) }
            try Self.run(DirectorySink(root: root, scheme: .xyz), workers: workers, metatile: metatile)
            outputs.append(try FileTree.files(under: root))
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        var contents: [String] = []
        for (workers, metatile) in [(1, 1), (3, 8)] {
            let pathFolder = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(pathFolder) }
            let path = pathFolder + "/t.mbtiles"
            try Self.run(
                MBTilesSink(path: path, metadata: Self.metadata, resume: false), workers: workers, metatile: metatile)
            contents.append(
                try SQLiteShell.query(
                    path,
                    "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3; SELECT * FROM metadata ORDER BY name; SELECT tile_id FROM images ORDER BY 1"
                ))
        }
        #expect(contents[0] == contents[1])
    }

    @Test func sameTreeWithOneAndFourWriterThreads() throws {
        var trees: [[String: [UInt8]]] = []
        for writers in [1, 4] {
            let root = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(root) }
            let summary = try Self.run(DirectorySink(root: root, scheme: .xyz, writers: writers), workers: 3)
            #expect(summary.tiles == Self.pyramid.tileCount)
            trees.append(try FileTree.files(under: root))
        }
        #expect(trees[0].count == Self.pyramid.tileCount)
        #expect(trees[0] == trees[1])
    }

    @Test func aFailedTileWriteIsTheJobsError() throws {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        // A folder where a tile's file must go: renaming the tile over it is refused.
        try FileManager.default.createDirectory(atPath: root + "/4/9/3.png", withIntermediateDirectories: true)
        #expect {
            try Self.run(DirectorySink(root: root, scheme: .xyz, writers: 4))
        } throws: { "\($0)".contains("/4/9/3.png") && "\($0)".contains("directory") }
        #expect(!FileManager.default.fileExists(atPath: root + "/" + DirectorySink.stagingFolder))
    }

    @Test func mbtilesLayoutMetadataAndDeduplication() throws {
        let pathFolder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(pathFolder) }
        let path = pathFolder + "/t.mbtiles"
        let summary = try Self.run(MBTilesSink(path: path, metadata: Self.metadata, resume: false))
        // Read back with Debian's sqlite3 shell, not our code.
        #expect(try SQLiteShell.query(path, "PRAGMA integrity_check") == "ok")
        #expect(try SQLiteShell.query(path, "SELECT count(*) FROM tiles") == "1365")
        let images = Int(try SQLiteShell.query(path, "SELECT count(*) FROM images"))!
        #expect(
            images == summary.distinct && images == 1 + 4 + (2...5).reduce(0) { $0 + (1 << $1) * (1 << $1) / 2 } + 1)
        #expect(
            try SQLiteShell.query(
                path,
                "SELECT count(*) FROM map WHERE tile_id = (SELECT tile_id FROM map GROUP BY tile_id ORDER BY count(*) DESC LIMIT 1)"
            ) == String((2...5).reduce(0) { $0 + (1 << $1) * (1 << $1) / 2 }))
        // TMS rows: XYZ tile 2/1/0 is stored at row 3.
        let expected = try CountingEncoder().encode(PatternRenderer.image(of: TileID(z: 2, x: 1, y: 0), side: 16))
        let hex = expected.map { String(format: "%02X", $0) }.joined()
        #expect(
            try SQLiteShell.query(
                path, "SELECT hex(tile_data) FROM tiles WHERE zoom_level = 2 AND tile_column = 1 AND tile_row = 3")
                == hex)
        #expect(
            try SQLiteShell.query(path, "SELECT name || '=' || value FROM metadata ORDER BY name") == """
                attribution=someone
                bounds=-180,-85.051129,180,85.051129
                center=0,0,2
                description=test: PNG map tiles, zoom 0-5, rendered by Meridian
                format=png
                maxzoom=5
                meridian=tile-size=256 scale=1 buffer=128
                minzoom=0
                name=test
                type=baselayer
                version=1.0.0
                """)
        // The centre's zoom: the world is 1024 px wide at zoom 2, the deepest at which it fits
        // the 1024 px view the centre is chosen for.
        // A finished file is one file: no write-ahead log or journal beside it.
        for suffix in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
        // Our reader agrees with the shell.
        let reader = try MBTilesReader(path: path)
        #expect(try reader.tile(TileID(z: 2, x: 1, y: 0)) == expected)
        #expect(try reader.tileCount() == 1365)
    }

    @Test func resumeSkipsWhatIsThereAndFinishesTheSame() throws {
        let wholeFolder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(wholeFolder) }
        let whole = wholeFolder + "/whole.mbtiles"
        try Self.run(MBTilesSink(path: whole, metadata: Self.metadata, resume: false))
        // A partial file: the first of three shards, as if a run had stopped there.
        let partialFolder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(partialFolder) }
        let partial = partialFolder + "/partial.mbtiles"
        let first = try Self.run(
            MBTilesSink(path: partial, metadata: Self.metadata, resume: false), shard: Shard(index: 0, count: 3))
        let encoder = CountingEncoder()
        let resumed = try Self.run(
            MBTilesSink(path: partial, metadata: Self.metadata, resume: true), metatile: 8, resume: true,
            encoder: encoder)
        #expect(resumed.skipped == first.tiles && resumed.tiles == 1365 - first.tiles)
        let query =
            "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3; SELECT * FROM metadata ORDER BY name"
        #expect(try SQLiteShell.query(partial, query) == (try SQLiteShell.query(whole, query)))

        // Directories too.
        let dir = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(dir) }
        try Self.run(DirectorySink(root: dir, scheme: .xyz), shard: Shard(index: 1, count: 2))
        let again = try Self.run(DirectorySink(root: dir, scheme: .xyz), resume: true)
        #expect(again.skipped + again.tiles == 1365)
        let reference = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(reference) }
        try Self.run(DirectorySink(root: reference, scheme: .xyz))
        #expect(try FileTree.files(under: dir) == (try FileTree.files(under: reference)))
    }

    @Test func resumeRefusesAFileOfAnotherJob() throws {
        let pathFolder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(pathFolder) }
        let path = pathFolder + "/t.mbtiles"
        try Self.run(
            MBTilesSink(path: path, metadata: Self.metadata, resume: false),
            pyramid: try TilePyramid(zooms: ZoomRange(min: 0, max: 2)))
        let other = TileSetMetadata(
            name: "test", attribution: nil, pyramid: Self.pyramid, format: try TileFormat(tileSize: 512), buffer: 128)
        #expect {
            try MBTilesSink(path: path, metadata: other, resume: true)
        } throws: { "\($0)".contains("was made by a different job") }
    }

    @Test func mergedShardsEqualTheWholeJob() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        try Self.run(MBTilesSink(path: folder + "/whole.mbtiles", metadata: Self.metadata, resume: false))
        var parts: [String] = []
        for i in 0..<3 {
            let path = folder + "/part\(i).mbtiles"
            try Self.run(
                MBTilesSink(path: path, metadata: Self.metadata, resume: false), workers: 1 + i, metatile: 8,
                shard: Shard(index: i, count: 3))
            parts.append(path)
        }
        let summary = try TileSetMerger.merge(inputs: parts.reversed(), output: folder + "/all.mbtiles")
        #expect(summary.tiles == 1365 && summary.inputs == 3)
        let query =
            "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3; SELECT * FROM metadata ORDER BY name; SELECT count(*) FROM images"
        #expect(
            try SQLiteShell.query(folder + "/all.mbtiles", query)
                == (try SQLiteShell.query(folder + "/whole.mbtiles", query)))
        #expect(try SQLiteShell.query(folder + "/all.mbtiles", "PRAGMA integrity_check") == "ok")
        // No temporary file is left beside the output.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "all.mbtiles", "part0.mbtiles", "part1.mbtiles", "part2.mbtiles", "whole.mbtiles",
            ])
    }

    @Test func mergeRefusesConflictingTiles() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        try Self.run(MBTilesSink(path: folder + "/a.mbtiles", metadata: Self.metadata, resume: false))
        try Self.run(MBTilesSink(path: folder + "/b.mbtiles", metadata: Self.metadata, resume: false))
        _ = try SQLiteShell.query(
            folder + "/b.mbtiles",
            "INSERT INTO images VALUES (x'00', 'other'); UPDATE map SET tile_id = 'other' WHERE zoom_level = 1 AND tile_column = 1 AND tile_row = 0"
        )
        #expect {
            try TileSetMerger.merge(
                inputs: [folder + "/a.mbtiles", folder + "/b.mbtiles"], output: folder + "/all.mbtiles")
        } throws: { "\($0)".contains("tile 1/1/1 differs") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/all.mbtiles"))
    }

    @Test func aFailingRendererStopsTheJobWithItsError() throws {
        struct Boom: Error, CustomStringConvertible {
            var description: String { "boom" }
        }
        final class Failing: MetatileRendering {
            func renderMetatile(_ metatile: Metatile) throws -> Image {
                if metatile.z == 4 { throw Boom() }
                return PatternRenderer.block(metatile, side: 8)
            }
        }
        let pathFolder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(pathFolder) }
        let path = pathFolder + "/t.mbtiles"
        let plan = try MetatilePlan(pyramid: Self.pyramid, size: 4)
        #expect {
            try TileJob(plan: plan, workers: 2).run(
                sink: MBTilesSink(path: path, metadata: Self.metadata, resume: false),
                encoder: CountingEncoder()
            ) { Failing() }
        } throws: { "\($0)".hasPrefix("metatile 4/") && "\($0)".contains("boom") }
        // What was committed before the failure is a valid file to resume.
        #expect(try SQLiteShell.query(path, "PRAGMA integrity_check") == "ok")
    }
}
