import Foundation
import Raster
import TestSupport
import Testing

@testable import Tiles

/// A renderer that fails on the metatile holding `failAt`, after others have been written.
private final class FailingRenderer: MetatileRendering {
    let failAt: TileID
    init(failAt: TileID) { self.failAt = failAt }

    struct Failure: Error {}

    func renderMetatile(_ metatile: Metatile) throws -> Image {
        if metatile.tiles.contains(failAt) { throw Failure() }
        return PatternRenderer.block(metatile, side: 16)
    }
}

/// `PMTilesSink` under the real job: the archive the PyPI reader sees, deterministic bytes,
/// and no archive at all from a failed job.
@Suite struct PMTilesSinkTests {
    static let pyramid = try! TilePyramid(
        zooms: ZoomRange(min: 0, max: 5), bounds: GeoBounds(west: -20, south: -10, east: 40, north: 60))
    static func metadata(_ imageFormat: TileImageFormat = .png) -> TileSetMetadata {
        TileSetMetadata(
            name: "test", attribution: "someone", pyramid: pyramid, format: try! TileFormat(), buffer: 128,
            imageFormat: imageFormat)
    }

    @Test func jobWritesAnArchiveThePyPIReaderReads() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/job.pmtiles"
        let sink = try PMTilesSink(path: path, metadata: Self.metadata(.webp(quality: 80)))
        let summary = try TileJobTests.run(sink, workers: 3, pyramid: Self.pyramid)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["job.pmtiles"])

        let tiles = Self.pyramid.ranges.flatMap { range in
            (range.minY...range.maxY).flatMap { y in (range.minX...range.maxX).map { TileID(z: range.z, x: $0, y: y) } }
        }
        #expect(summary.tiles == tiles.count && tiles.count == Self.pyramid.tileCount)
        let dump = try PMTilesReference.dump(path, asking: Array(tiles.prefix(30)))
        let expected = try Dictionary(
            uniqueKeysWithValues: tiles.map {
                ($0.description, try CountingEncoder().encode(PatternRenderer.image(of: $0, side: 16)))
            })
        #expect(dump.all == expected)
        #expect(dump.got.count == 30 && dump.got.allSatisfy { expected[$0.key] == $0.value })
        #expect(summary.distinct == Set(expected.values).count)
        #expect(dump.int("tile_contents_count") == summary.distinct)

        #expect(dump.int("tile_type") == 4)  // the format recorded in the header: WebP
        #expect(dump.int("min_zoom") == 0 && dump.int("max_zoom") == 5)
        #expect(dump.int("min_lon_e7") == -200_000_000 && dump.int("min_lat_e7") == -100_000_000)
        #expect(dump.int("max_lon_e7") == 400_000_000 && dump.int("max_lat_e7") == 600_000_000)
        #expect(dump.int("center_lon_e7") == 100_000_000 && dump.int("center_lat_e7") == 250_000_000)
        // The bounds span 0.237 of the world's width (in Web Mercator, from -10 to 60 degrees
        // north): they fit 1024 pixels up to zoom 4, where the world is 4096 pixels wide.
        #expect(dump.int("center_zoom") == 4)
        #expect(dump.metadata["format"] as? String == "webp")
        #expect(dump.metadata["meridian"] as? String == "tile-size=256 scale=1 buffer=128 quality=80")
        #expect(dump.metadata["attribution"] as? String == "someone")
    }

    @Test func sameBytesWhateverWorkersAndMetatiles() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        var archives: [[UInt8]] = []
        for (index, (workers, metatile)) in [(1, 1), (3, 8), (2, 3)].enumerated() {
            let path = folder + "/\(index).pmtiles"
            try TileJobTests.run(
                PMTilesSink(path: path, metadata: Self.metadata()), workers: workers, metatile: metatile,
                pyramid: Self.pyramid)
            archives.append(try FileIO.readBytes(atPath: path))
        }
        #expect(archives[0] == archives[1] && archives[1] == archives[2])
    }

    /// A failed job leaves the earlier archive as it was and its tiles in the in-progress
    /// file; resumed, it ends with the archive an uninterrupted job writes.
    @Test func failedJobKeepsTheOldArchiveAndResumes() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let path = folder + "/failed.pmtiles"
        try FileIO.writeAtomically(Array("an older archive".utf8), toPath: path)
        let plan = try MetatilePlan(pyramid: Self.pyramid, size: 2)
        let sink = try PMTilesSink(path: path, metadata: Self.metadata())
        #expect(throws: TilesError.self) {
            try TileJob(plan: plan, workers: 2).run(sink: sink, encoder: CountingEncoder()) {
                FailingRenderer(failAt: TileID(z: 4, x: 9, y: 5))
            }
        }
        let stored = sink.statistics.tiles
        #expect(stored > 0)  // it failed after writing tiles
        #expect(try FileIO.readBytes(atPath: path) == Array("an older archive".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "failed.pmtiles", "failed.pmtiles.partial",
            ])

        let resumed = try TileJobTests.run(
            PMTilesSink(path: path, metadata: Self.metadata(), resume: true), resume: true, pyramid: Self.pyramid)
        #expect(resumed.skipped == stored && resumed.skipped + resumed.tiles == Self.pyramid.tileCount)
        let reference = folder + "/reference.pmtiles"
        try TileJobTests.run(PMTilesSink(path: reference, metadata: Self.metadata()), pyramid: Self.pyramid)
        #expect(try FileIO.readBytes(atPath: path) == FileIO.readBytes(atPath: reference))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "failed.pmtiles", "reference.pmtiles",
            ])
    }
}

@Suite struct TileImageFormatTests {
    @Test func qualityIsOneToHundred() throws {
        #expect(try TileImageFormat.webp(quality: nil).checked() == .webp(quality: nil))
        #expect(try TileImageFormat.webp(quality: 100).checked() == .webp(quality: 100))
        #expect(try TileImageFormat.jpeg(quality: 1).checked() == .jpeg(quality: 1))
        #expect(throws: TilesError.qualityOutOfRange(101)) { try TileImageFormat.jpeg(quality: 101).checked() }
        #expect(throws: TilesError.qualityOutOfRange(0)) { try TileImageFormat.webp(quality: 0).checked() }
    }

    /// MBTiles 1.3 names: png, jpg, webp; the PMTiles tile type to match.
    @Test func namesTheFormatForMetadataAndFiles() throws {
        let cases: [(TileImageFormat, String, PMTilesTileType)] = [
            (.png, "png", .png), (.webp(quality: nil), "webp", .webp), (.jpeg(quality: 50), "jpg", .jpeg),
        ]
        for (format, name, type) in cases {
            #expect(format.metadataFormat == name && format.fileExtension == name && format.pmtilesType == type)
            let metadata = TileSetMetadata(
                name: "n", attribution: nil, pyramid: PMTilesSinkTests.pyramid, format: try TileFormat(), buffer: 0,
                imageFormat: format)
            #expect(metadata.values["format"] == name)
            #expect(try PMTilesArchive.header(for: metadata, path: "p").tileType == type)
        }
        // PNG metadata is what it was before other formats existed (so old files resume).
        let png = TileSetMetadata(
            name: "n", attribution: nil, pyramid: PMTilesSinkTests.pyramid, format: try TileFormat(), buffer: 0)
        #expect(png.values["meridian"] == "tile-size=256 scale=1 buffer=0")
    }

}
