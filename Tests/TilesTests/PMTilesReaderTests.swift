import Foundation
import Raster
import Synchronization
import TestSupport
import Testing

@testable import Tiles

/// An archive assembled by hand around `root` (uncompressed directories), with one tile data
/// section of `data`.
private func handMadeArchive(root: [UInt8], data: [UInt8], compression: PMTilesCompression = .none) -> [UInt8] {
    var header = PMTilesHeader()
    header.internalCompression = compression
    header.tileType = .png
    header.rootOffset = 127
    header.rootLength = UInt64(root.count)
    header.metadataOffset = 127 + UInt64(root.count)
    header.metadataLength = 2
    header.leafDirectoriesOffset = header.metadataOffset + 2
    header.tileDataOffset = header.leafDirectoriesOffset
    header.tileDataLength = UInt64(data.count)
    return header.bytes + root + Array("{}".utf8) + data
}

@Suite struct PMTilesReaderTests {
    /// Writes `bytes` to a scratch file and opens it; the error, if any, is the result.
    func open(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> Result<
        PMTilesReader, PMTilesError
    > {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/t.pmtiles"
        try FileIO.writeAtomically(bytes, toPath: path)
        do { return .success(try PMTilesReader(path: path)) } catch {
            #expect(error.path == path, sourceLocation: sourceLocation)
            return .failure(error)
        }
    }

    func problem(_ bytes: [UInt8]) throws -> (offset: UInt64?, problem: String)? {
        guard case .failure(let error) = try open(bytes) else { return nil }
        return (error.offset, error.problem)
    }

    @Test func readsUncompressedDirectories() throws {
        let root = PMTilesDirectory.serialize([
            PMTilesEntry(tileID: 0, offset: 0, length: 3, runLength: 1),
            PMTilesEntry(tileID: 1, offset: 3, length: 2, runLength: 3),
        ])
        let reader = try open(handMadeArchive(root: root, data: [1, 2, 3, 4, 5])).get()
        #expect(try reader.tile(TileID(z: 0, x: 0, y: 0)) == [1, 2, 3])
        // Zoom 1 along the Hilbert curve: 1/0/0 is tile ID 1, 1/0/1 is 2, 1/1/1 is 3 (the
        // run's last), 1/1/0 is 4, past it.
        for (x, y) in [(0, 0), (0, 1), (1, 1)] { #expect(try reader.tile(TileID(z: 1, x: x, y: y)) == [4, 5]) }
        #expect(try reader.tile(TileID(z: 1, x: 1, y: 0)) == nil)
        #expect(try reader.tile(TileID(z: 1, x: 2, y: 0)) == nil)
        #expect(try reader.metadataJSON() == Array("{}".utf8))
    }

    @Test func refusesWhatIsNotAnArchive() throws {
        #expect(
            try problem(Array("PMTiles".utf8))! == (nil, "is 7 bytes long, shorter than the 127-byte PMTiles header"))
        let good = handMadeArchive(
            root: PMTilesDirectory.serialize([PMTilesEntry(tileID: 0, offset: 0, length: 1, runLength: 1)]), data: [9])
        #expect(try open(good).get().header.tileType == .png)
        var magic = good
        magic[0] = UInt8(ascii: "X")
        #expect(try problem(magic)! == (0, "not a PMTiles archive (no \"PMTiles\" magic)"))
        var version = good
        version[7] = 2
        #expect(try problem(version)! == (7, "PMTiles version 2 is not supported (only 3)"))
        var compression = good
        compression[97] = 3
        #expect(
            try problem(compression)! == (97, "directories compressed with brotli are not supported (gzip or none)"))
        let short = try problem(Array(good.dropLast()))
        #expect(short?.offset == UInt64(good.count - 1))
        #expect(short?.problem == "the tile data (1 bytes) runs past the end of the \(good.count - 1)-byte file")

        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        #expect(
            throws: PMTilesError(path: folder + "/none.pmtiles", problem: "cannot read it (No such file or directory)")
        ) {
            try PMTilesReader(path: folder + "/none.pmtiles")
        }
    }

    @Test func refusesCorruptDirectories() throws {
        func rootProblem(_ root: [UInt8], compression: PMTilesCompression = .none) throws -> String? {
            try problem(handMadeArchive(root: root, data: [1, 2, 3, 4], compression: compression)).map {
                #expect($0.offset == 127)
                return $0.problem
            }
        }
        #expect(try rootProblem([1, 0, 1, 0, 1]) == "root directory: entry 0 has length 0")
        #expect(try rootProblem([2, 0, 0, 1, 1, 1, 1, 1, 0]) == "root directory: entry 1 repeats the tile ID 0")
        #expect(try rootProblem([2, 0, 1, 3, 1, 1, 1, 1, 0]) == "root directory: the run of entry 0 overlaps entry 1")
        #expect(try rootProblem([1, 0, 1, 1]) == "root directory: ends inside the offset of entry 0")
        #expect(try rootProblem([0xFF, 0xFF, 0xFF, 0x7F]) == "root directory: claims 268435455 entries in 4 bytes")
        #expect(
            try rootProblem([1] + [UInt8](repeating: 0xFF, count: 10) + [1, 1, 1, 1])
                == "root directory: the tile ID of entry 0 does not fit in 64 bits")
        #expect(try rootProblem([1, 0, 1, 1, 1, 7]) == "root directory: has 1 bytes after its entries")
        #expect(try rootProblem([1, 2, 3], compression: .gzip) == "root directory: 3 bytes are too short for gzip")
        let notGzip = [UInt8](repeating: 0x55, count: 30)
        #expect(try rootProblem(notGzip, compression: .gzip)?.hasPrefix("root directory: gzip data expands to") == true)
        let smallNotGzip = [UInt8](repeating: 0x55, count: 26) + [10, 0, 0, 0]
        #expect(try rootProblem(smallNotGzip, compression: .gzip) == "root directory: not valid gzip data")
        let bomb = GzipCompressor().compress([UInt8](repeating: 0, count: 65 << 20))
        #expect(
            try rootProblem(bomb, compression: .gzip)
                == "root directory: gzip data expands to 68157440 bytes, more than the 67108864 accepted")

        // A tile outside the data section is found at lookup, not at open.
        let reader = try open(
            handMadeArchive(
                root: PMTilesDirectory.serialize([PMTilesEntry(tileID: 0, offset: 2, length: 5, runLength: 1)]),
                data: [1, 2, 3, 4])
        ).get()
        #expect(throws: PMTilesError.self) { try reader.tile(TileID(z: 0, x: 0, y: 0)) }
    }

    @Test func lookupsRunOnManyThreadsAtOnce() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/threads.pmtiles"
        let writer = try PMTilesWriter(path: path, rootLimit: 40)
        let tiles = (0...6).flatMap { z in (0..<(1 << (2 * z))).map { TileID(z: z, x: $0 % (1 << z), y: $0 >> z) } }
        for tile in tiles { try writer.add(tile, data: Array("\(tile)".utf8)) }
        try writer.finish(header: PMTilesHeader(), metadata: Array("{}".utf8))
        let reader = try PMTilesReader(path: path)
        #expect(reader.header.leafDirectoriesLength > 0)
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for tile in tiles.reversed() where tile.x % 8 == worker {
                if (try? reader.tile(tile)) != Array("\(tile)".utf8) { wrong.withLock { $0 += 1 } }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
    }
}
