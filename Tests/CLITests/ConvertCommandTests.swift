import Foundation
import TestSupport
import Testing

/// `meridian convert` between directories, MBTiles files and PMTiles archives, and PMTiles
/// through shards and `merge`, checked with readers that are not ours: the file tree,
/// Debian's sqlite3 and the PyPI pmtiles package.
@Suite struct ConvertCommandTests {
    let world = Repository.fixture("maps/world.json")

    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try Meridian.run(arguments)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
    }

    /// The tiles of an MBTiles file as the sqlite3 shell reads them: z/x/y (XYZ row) -> bytes.
    func mbtilesTiles(_ path: String) throws -> [String: [UInt8]] {
        let rows = try SQLiteShell.query(path, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles")
        var tiles: [String: [UInt8]] = [:]
        for row in rows.split(separator: "\n") {
            let cells = row.split(separator: "|")
            let z = Int(cells[0])!
            tiles["\(z)/\(cells[1])/\((1 << z) - 1 - Int(cells[2])!)"] = try PMTilesReference.bytes(
                hex: cells[3].lowercased())
        }
        return tiles
    }

    /// The tiles of any of the three kinds, read independently of meridian, keyed z/x/y.
    func tiles(_ path: String) throws -> [String: [UInt8]] {
        if path.hasSuffix(".mbtiles") { return try mbtilesTiles(path) }
        if path.hasSuffix(".pmtiles") { return try PMTilesReference.dump(path, asking: []).all }
        return Dictionary(
            uniqueKeysWithValues: try FileTree.tiles(under: path).map { name, bytes in
                ((name as NSString).deletingPathExtension, bytes)
            })
    }

    /// Every direction, through a chain that ends where it began: the tiles are the same at
    /// each step, and the metadata comes back whole.
    @Test func everyDirectionKeepsTilesAndMetadata() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let d = folder.path
        try succeed(["tiles", world, "--zoom", "0-2", "--format", "webp", "-o", d + "/start.mbtiles", "--quiet"])
        let original = try tiles(d + "/start.mbtiles")
        #expect(original.count == 21)
        let chain = ["start.mbtiles", "a.pmtiles", "b", "c.mbtiles", "d", "e.pmtiles", "f.mbtiles"]
        for (from, to) in zip(chain, chain.dropFirst()) {
            try succeed(["convert", d + "/" + from, d + "/" + to, "--quiet"])
            #expect(try tiles(d + "/" + to) == original, "\(from) -> \(to)")
        }
        #expect(try SQLiteShell.content(d + "/f.mbtiles") == SQLiteShell.content(d + "/start.mbtiles"))
        // A directory target has its TileJSON and viewer page; the tiles are WebP files.
        #expect(FileManager.default.fileExists(atPath: d + "/b/index.html"))
        #expect(try FileTree.tiles(under: d + "/b").keys.allSatisfy { $0.hasSuffix(".webp") })
        let tileJSON = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: d + "/b/tiles.json")))
        #expect((tileJSON as? [String: Any])?["tiles"] as? [String] == ["{z}/{x}/{y}.webp"])
        // Only what the chain made: no in-progress files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: d).sorted() == chain.sorted())
    }

    @Test func aTMSDirectoryIsReadAndWritten() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let d = folder.path
        try succeed(["tiles", world, "--zoom", "0-2", "-o", d + "/xyz", "--quiet"])
        try succeed(["convert", d + "/xyz", d + "/tms", "--scheme", "tms", "--quiet"])
        let xyz = try FileTree.tiles(under: d + "/xyz")
        let tms = try FileTree.tiles(under: d + "/tms")
        #expect(tms.count == 21)
        for (name, bytes) in xyz {
            let p = (name as NSString).deletingPathExtension.split(separator: "/").map { Int($0)! }
            #expect(tms["\(p[0])/\(p[1])/\((1 << p[0]) - 1 - p[2]).png"] == bytes, "\(name)")
        }
        // Its tiles.json says tms, so converting it back needs no option.
        try succeed(["convert", d + "/tms", d + "/back.mbtiles", "--quiet"])
        #expect(try tiles(d + "/back.mbtiles") == tiles(d + "/xyz"))
    }

    @Test func refusesWhatItCannotDo() throws {
        let check = TilesCommandTests()
        try check.expectRejected(["convert", "DIR/a.mbtiles"], mentions: "give the source and the target")
        try check.expectRejected(["convert", "DIR/a.zip", "DIR/b.mbtiles"], mentions: "'.zip' is not a tile set")
        try check.expectRejected(["convert", "DIR/a.mbtiles", "DIR/a.mbtiles"], mentions: "is also an input")
        try check.expectRejected(["convert", "DIR/a.mbtiles", "DIR/b.pmtiles"], mentions: "no such file", status: 1)
        try check.expectRejected(
            ["convert", "DIR/a.mbtiles", "DIR/b.pmtiles", "--scheme", "tms"],
            mentions: "--scheme is for a directory target")
    }

    /// A PMTiles job in shards, merged, is the archive of the whole job, byte for byte; the
    /// merge reads PMTiles inputs and writes a PMTiles output.
    @Test func pmtilesShardsMergeIntoTheWholeArchive() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let d = folder.path
        let common = ["tiles", world, "--zoom", "0-4", "--metatile", "4", "--quiet"]
        try succeed(common + ["-o", d + "/whole.pmtiles"])
        var parts: [String] = []
        for i in 0..<3 {
            parts.append(d + "/part\(i).pmtiles")
            try succeed(common + ["--shard", "\(i)/3", "-o", parts[i]])
        }
        let counts = try parts.map { try PMTilesReference.dump($0, asking: []).all.count }
        #expect(counts.reduce(0, +) == 341 && counts.allSatisfy { $0 > 50 }, "\(counts)")
        let merge = try Meridian.run(["merge"] + parts + ["-o", d + "/all.pmtiles"])
        #expect(merge.status == 0 && merge.stdout.contains("341 tiles"), "\(merge.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: d + "/all.pmtiles"))
                == Data(contentsOf: URL(fileURLWithPath: d + "/whole.pmtiles")))
        // MBTiles and PMTiles inputs mix.
        try succeed(["convert", parts[0], d + "/part0.mbtiles", "--quiet"])
        let mixed = try Meridian.run(["merge", d + "/part0.mbtiles", parts[1], parts[2], "-o", d + "/mixed.pmtiles"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: d + "/mixed.pmtiles"))
                == Data(contentsOf: URL(fileURLWithPath: d + "/whole.pmtiles")))
    }
}
