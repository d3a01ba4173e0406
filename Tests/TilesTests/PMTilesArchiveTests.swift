import Foundation
import Raster
import TestSupport
import Testing

@testable import Tiles

/// Every tile of zooms `zooms`, in row order (not tile-ID order).
private func pyramid(_ zooms: ClosedRange<Int>) -> [TileID] {
    zooms.flatMap { z in (0..<(1 << z)).flatMap { y in (0..<(1 << z)).map { x in TileID(z: z, x: x, y: y) } } }
}

/// Bytes for a tile: the same "ocean" bytes for the southern half of every zoom from 2 on
/// (so runs and repeats occur), otherwise bytes of varying length that name the tile.
private func content(of tile: TileID) -> [UInt8] {
    if tile.z >= 2 && tile.y >= 1 << (tile.z - 1) { return Array("ocean".utf8) }
    let seed = UInt64(tile.z) &* 0x9E37_79B9 ^ UInt64(tile.x) &* 0x85EB_CA6B ^ UInt64(tile.y) &* 0xC2B2_AE35
    return Array("\(tile)".utf8) + (0..<Int(seed % 23)).map { UInt8(truncatingIfNeeded: seed >> UInt64($0 % 8 * 8)) }
}

private func header(type: PMTilesTileType = .png, zooms: ClosedRange<Int>) -> PMTilesHeader {
    var header = PMTilesHeader()
    header.tileType = type
    header.minZoom = UInt8(zooms.lowerBound)
    header.maxZoom = UInt8(zooms.upperBound)
    header.minLongitudeE7 = PMTilesHeader.e7(-180)
    header.minLatitudeE7 = PMTilesHeader.e7(-85.051129)
    header.maxLongitudeE7 = PMTilesHeader.e7(180)
    header.maxLatitudeE7 = PMTilesHeader.e7(85.051129)
    header.centerZoom = UInt8(zooms.lowerBound)
    return header
}

private let metadataJSON = Array(#"{"attribution":"Test data","format":"png","name":"pyramid"}"#.utf8)

/// Writes `tiles` (in the order given) into `path` with our writer.
@discardableResult
private func writeArchive(
    _ path: String, _ tiles: [TileID], zooms: ClosedRange<Int>, rootLimit: Int? = nil
) throws -> PMTilesWriter {
    let writer = try rootLimit.map { try PMTilesWriter(path: path, rootLimit: $0) } ?? PMTilesWriter(path: path)
    for tile in tiles { try writer.add(tile, data: content(of: tile)) }
    try writer.finish(header: header(zooms: zooms), metadata: metadataJSON)
    return writer
}

/// The reference reader finds every tile by walking the directories, and `lookups` of them
/// by `Reader.get`, with the bytes we wrote, and nothing else. (Its `get` decodes the
/// directories again for every call: tens of milliseconds a tile in a large archive.)
private func expectReferenceReads(
    _ path: String, _ tiles: [TileID], lookups: [TileID]? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> PMTilesReference.Dump {
    let asked = lookups ?? tiles
    let absent = TileID(z: 9, x: 0, y: 0)
    let dump = try PMTilesReference.dump(path, asking: asked + [absent])
    let expected = Dictionary(uniqueKeysWithValues: tiles.map { ($0.description, content(of: $0)) })
    let askedKeys = Set(asked.map(\.description))
    #expect(
        dump.got == expected.filter { askedKeys.contains($0.key) }, "lookups differ", sourceLocation: sourceLocation)
    #expect(dump.all == expected, "directory walk differs", sourceLocation: sourceLocation)
    return dump
}

/// Our reader's walk gives every one of `tiles` once, with its bytes, in tile-ID order (the
/// order of the directories).
private func expectWalkGives(
    _ reader: PMTilesReader, _ tiles: [TileID], sourceLocation: SourceLocation = #_sourceLocation
) throws {
    var walked = 0
    var previous: UInt64?
    try reader.forEachTile { tile, bytes in
        #expect(bytes == content(of: tile), "\(tile)", sourceLocation: sourceLocation)
        #expect(previous.map { $0 < tile.pmtilesID } ?? true, "\(tile) out of order", sourceLocation: sourceLocation)
        previous = tile.pmtilesID
        walked += 1
    }
    #expect(walked == tiles.count, sourceLocation: sourceLocation)
}

/// Zooms 0 and 1 and every 4001st tile after them: about 25 lookups, enough to hit many
/// leaves, few enough for the reference reader's per-call cost.
private func sample(_ tiles: [TileID]) -> [TileID] {
    tiles.enumerated().filter { $0.element.z < 2 || $0.offset % 4001 == 0 }.map(\.element)
}

@Suite struct PMTilesArchiveTests {
    @Test func tileIDsAreThoseOfTheReference() throws {
        var tiles = pyramid(0...4)
        for z in [10, 20, 24, 31] {
            let last = (1 << z) - 1
            tiles += [
                TileID(z: z, x: 0, y: 0), TileID(z: z, x: last, y: 0), TileID(z: z, x: 0, y: last),
                TileID(z: z, x: last, y: last), TileID(z: z, x: last / 3, y: last / 7 * 5),
            ]
        }
        let reference = try PMTilesReference.ids(tiles)
        #expect(reference == tiles.map(\.pmtilesID))
        for tile in tiles { #expect(TileID(pmtilesID: tile.pmtilesID) == tile) }
        // (4^32 - 1) / 3, the first ID of zoom 32, is UInt64.max / 3.
        #expect(TileID(pmtilesID: UInt64.max / 3) == nil && TileID(pmtilesID: UInt64.max / 3 - 1) != nil)
    }

    @Test func smallArchiveReadsBackWithThePyPIReader() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/small.pmtiles"
        let tiles = pyramid(0...3)
        try writeArchive(path, tiles, zooms: 0...3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["small.pmtiles"])

        let dump = try expectReferenceReads(path, tiles)
        let distinct = Set(tiles.map(content(of:)))
        #expect(dump.int("addressed_tiles_count") == tiles.count)
        #expect(dump.int("tile_contents_count") == distinct.count)
        #expect(dump.int("tile_entries_count")! < tiles.count)  // ocean runs folded
        #expect(dump.header["clustered"] as? Bool == true)
        #expect(dump.int("internal_compression") == 2 && dump.int("tile_compression") == 1)
        #expect(dump.int("tile_type") == 2)
        #expect(dump.int("min_zoom") == 0 && dump.int("max_zoom") == 3)
        #expect(dump.int("min_lon_e7") == -1_800_000_000 && dump.int("max_lat_e7") == 850_511_290)
        #expect(dump.int("leaf_directory_length") == 0)
        #expect(dump.int("tile_data_length") == distinct.reduce(0) { $0 + $1.count })
        #expect(dump.metadata as? [String: String] == ["attribution": "Test data", "format": "png", "name": "pyramid"])
    }

    /// Zooms 0-8 of small, mostly distinct tiles: 87,381 tiles, more than one 16 KiB root
    /// directory can list, so the writer makes leaf directories.
    @Test func largePyramidUsesLeafDirectories() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/large.pmtiles"
        let tiles = pyramid(0...8)
        try writeArchive(path, tiles, zooms: 0...8)
        let dump = try expectReferenceReads(path, tiles, lookups: sample(tiles))
        #expect(dump.int("leaf_directory_length")! > 0)
        #expect(dump.int("root_offset")! + dump.int("root_length")! < 16_384)
        #expect(dump.int("addressed_tiles_count") == tiles.count)

        // Our reader agrees, by lookup and by walking.
        let reader = try PMTilesReader(path: path)
        for tile in tiles where tile.x % 7 == 0 { #expect(try reader.tile(tile) == content(of: tile)) }
        #expect(try reader.tile(TileID(z: 9, x: 3, y: 3)) == nil)
        try expectWalkGives(reader, tiles)
    }

    /// A tiny root limit makes the writer grow its leaves until the root fits.
    @Test func leavesGrowUntilTheRootFits() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/grown.pmtiles"
        let tiles = pyramid(0...7)
        try writeArchive(path, tiles, zooms: 0...7, rootLimit: 60)
        let dump = try expectReferenceReads(path, tiles, lookups: sample(tiles))
        #expect(dump.int("root_length")! <= 60 && dump.int("leaf_directory_length")! > 0)
    }

    @Test func identicalTilesAreStoredOnce() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let ocean = [UInt8](repeating: 0xAB, count: 1000)
        let tiles = pyramid(0...5)  // 1365 tiles
        let path = folder + "/ocean.pmtiles"
        let writer = try PMTilesWriter(path: path)
        for tile in tiles {
            #expect(
                try writer.add(tile, data: tile == TileID(z: 5, x: 3, y: 4) ? [1, 2, 3] : ocean)
                    == (tile.z == 0 || tile == TileID(z: 5, x: 3, y: 4)))
        }
        #expect(writer.storedBytes == 1003 && writer.distinctCount == 2)
        try writer.finish(header: header(zooms: 0...5), metadata: metadataJSON)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        // One copy of each content plus header, directories and metadata: far below the
        // 1.36 MB that 1365 copies would take.
        #expect(size < 1003 + 1000, "\(size) bytes")
        let dump = try PMTilesReference.dump(path, asking: [TileID(z: 5, x: 3, y: 4), TileID(z: 4, x: 9, y: 9)])
        #expect(dump.got["5/3/4"] == [1, 2, 3] && dump.got["4/9/9"] == ocean)
        #expect(dump.all.count == tiles.count)
        // Three runs of consecutive tile IDs: everything before 5/3/4, it, everything after.
        #expect(dump.int("tile_entries_count") == 3 && dump.int("tile_contents_count") == 2)
    }

    /// The bytes depend on the tiles, not on the order they came in.
    @Test func orderDoesNotChangeTheBytes() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let tiles = pyramid(0...6)
        try writeArchive(folder + "/a.pmtiles", tiles, zooms: 0...6)
        var shuffled = tiles
        var generator = SeededGenerator(state: 42)
        shuffled.shuffle(using: &generator)
        try writeArchive(folder + "/b.pmtiles", shuffled, zooms: 0...6)
        let a = try FileIO.readBytes(atPath: folder + "/a.pmtiles")
        #expect(a == (try FileIO.readBytes(atPath: folder + "/b.pmtiles")))
    }

    @Test func readsAnArchiveWrittenByThePyPIWriter() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/python.pmtiles"
        let tiles = pyramid(0...8)  // 87,381 tiles: the Python writer makes leaf directories
        try PMTilesReference.write(
            path, tiles: tiles.map { ($0, content(of: $0)) }, metadata: ["name": "from python"],
            header: [
                "tile_type": 4, "min_zoom": 0, "max_zoom": 8, "min_lon_e7": -100_000_000, "min_lat_e7": 20,
                "max_lon_e7": 300_000_000, "max_lat_e7": 400_000_000, "center_zoom": 3, "center_lon_e7": 1,
                "center_lat_e7": -2,
            ])
        let reader = try PMTilesReader(path: path)
        #expect(reader.header.tileType == .webp && reader.header.maxZoom == 8 && reader.header.centerZoom == 3)
        #expect(reader.header.minLongitudeE7 == -100_000_000 && reader.header.centerLatitudeE7 == -2)
        #expect(reader.header.leafDirectoriesLength > 0)
        let metadata = try JSONSerialization.jsonObject(with: Data(try reader.metadataJSON())) as? [String: String]
        #expect(metadata == ["name": "from python"])
        for tile in tiles { #expect(try reader.tile(tile) == content(of: tile), "\(tile)") }
        try expectWalkGives(reader, tiles)
    }

    @Test func archiveWithoutTilesReadsAsEmpty() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/empty.pmtiles"
        try writeArchive(path, [], zooms: 0...2)
        let dump = try PMTilesReference.dump(path, asking: [TileID(z: 0, x: 0, y: 0)])
        #expect(dump.got.isEmpty && dump.all.isEmpty && dump.int("addressed_tiles_count") == 0)
        let reader = try PMTilesReader(path: path)
        #expect(try reader.tile(TileID(z: 0, x: 0, y: 0)) == nil)
        try reader.forEachTile { tile, _ in Issue.record("unexpected tile \(tile)") }
    }

    @Test func abandonedArchiveLeavesTheOldFileAndNoScratch() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/kept.pmtiles"
        try FileIO.writeAtomically(Array("old".utf8), toPath: path)
        let writer = try PMTilesWriter(path: path)
        try writer.add(TileID(z: 0, x: 0, y: 0), data: [1])
        writer.abandon()
        #expect(try FileIO.readBytes(atPath: path) == Array("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["kept.pmtiles"])
        #expect(throws: TilesError.self) { try writer.add(TileID(z: 0, x: 0, y: 0), data: [1]) }
    }

    @Test func writerRefusesWhatAnArchiveCannotHold() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        #expect(
            throws: TilesError.io(path: folder + "/no/a.pmtiles", message: "the folder \(folder)/no does not exist")
        ) {
            try PMTilesWriter(path: folder + "/no/a.pmtiles")
        }
        #expect(throws: TilesError.io(path: folder, message: "it is a directory")) {
            try PMTilesWriter(path: folder)
        }
        let writer = try PMTilesWriter(path: folder + "/a.pmtiles")
        #expect(throws: TilesError.self) { try writer.add(TileID(z: 1, x: 2, y: 0), data: [1]) }
        #expect(throws: TilesError.self) { try writer.add(TileID(z: 1, x: 0, y: 0), data: []) }
        try writer.add(TileID(z: 1, x: 0, y: 0), data: [1])
        try writer.add(TileID(z: 1, x: 0, y: 0), data: [2])
        #expect(
            throws: TilesError.tileNotStorable(
                path: folder + "/a.pmtiles", tile: TileID(z: 1, x: 0, y: 0), problem: .duplicate)
        ) {
            try writer.finish(header: header(zooms: 1...1), metadata: metadataJSON)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.pmtiles"))
    }
}

/// A reproducible shuffle.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
