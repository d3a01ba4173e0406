import Foundation
import ImageDiff
import Raster
import TestSupport
import Testing

/// `meridian tiles --format png|webp|jpeg --quality Q -o DIR | FILE.mbtiles | FILE.pmtiles`,
/// checked with independent readers: the PyPI pmtiles package, Debian's dwebp, djpeg and sqlite3.
@Suite struct TilesFormatsTests {
    let world = Repository.fixture("maps/world.json")

    func render(_ arguments: [String], zoom: String = "0-2", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try Meridian.run(["tiles", world, "--zoom", zoom, "--workers", "2", "--quiet"] + arguments)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)", sourceLocation: sourceLocation)
    }

    /// For each format, a PMTiles archive holds exactly the tiles of the directory pyramid of
    /// the same job, byte for byte, as the PyPI reader extracts them.
    @Test(arguments: [["--format", "png"], ["--format", "webp"], ["--format", "jpeg", "--quality", "80"]])
    func pmtilesHoldsTheDirectoryPyramidsTiles(format: [String]) throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        try render(["-o", folder + "/dir"] + format)
        try render(["-o", folder + "/a.pmtiles"] + format)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["dir", "a.pmtiles"])
        try PMTilesReference.extract(folder + "/a.pmtiles", to: folder + "/extracted")
        let ext = format[1] == "jpeg" ? "jpg" : format[1]
        let pyramid = try FileTree.tiles(under: folder + "/dir")
        #expect(pyramid.count == 21)
        #expect(try FileTree.files(under: folder + "/extracted") == pyramid)
        #expect(pyramid.keys.allSatisfy { $0.hasSuffix("." + ext) })
    }

    /// Lossless WebP tiles decode (with dwebp) to exactly the pixels of the PNG tiles.
    @Test func losslessWebPTilesHaveThePNGTilesPixels() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        try render(["-o", folder + "/png"], zoom: "2")
        try render(["-o", folder + "/webp", "--format", "webp"], zoom: "2")
        let png = try FileTree.tiles(under: folder + "/png")
        let webp = try FileTree.tiles(under: folder + "/webp")
        #expect(png.count == 16 && webp.count == 16)
        for name in png.keys {
            let tile = String(name.dropLast(4))
            let decoded = try ReferenceImageDecoder.dwebp(webp[tile + ".webp"]!)
            #expect(decoded == (try PNG.decode(png[name]!)), "\(tile)")
        }
    }

    /// JPEG tiles in MBTiles: the format is recorded as `jpg`, with the quality in the
    /// `meridian` key, and the tiles look like the PNG ones (djpeg, within the lossy tolerance
    /// stated in RasterTests: ImageDiff threshold 0.15, at most 0.5% of pixels).
    @Test func jpegMBTilesRecordsItsFormatAndLooksRight() throws {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let folder = scratch.path
        let mbtiles = folder + "/j.mbtiles"
        try render(["-o", mbtiles, "--format", "jpeg", "--quality", "85"])
        try render(["-o", folder + "/png"])
        #expect(try SQLiteShell.query(mbtiles, "SELECT value FROM metadata WHERE name = 'format'") == "jpg")
        #expect(
            try SQLiteShell.query(mbtiles, "SELECT value FROM metadata WHERE name = 'meridian'")
                == "tile-size=256 scale=1 buffer=128 quality=85")
        for (x, y) in [(0, 0), (1, 2), (3, 1)] {
            let hex = try SQLiteShell.query(
                mbtiles,
                "SELECT hex(tile_data) FROM tiles WHERE zoom_level = 2 AND tile_column = \(x) AND tile_row = \(3 - y)")
            let expected = try PNG.decode(FileIO.readBytes(atPath: folder + "/png/2/\(x)/\(y).png"))
            let actual = try ReferenceImageDecoder.djpeg(PMTilesReference.bytes(hex: hex.lowercased()))
            let result = ImageComparator(threshold: 0.15).compare(expected: expected, actual: actual)
            #expect(
                Double(result.differingPixels) <= 0.005 * Double(result.totalPixels),
                "2/\(x)/\(y): \(result.differingPixels) pixels differ")
        }
    }

    @Test func refusesWhatItCannotWrite() throws {
        let check = TilesCommandTests()
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x.zip"], mentions: "'.zip' is not a tile set meridian knows")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x", "--format", "gif"], mentions: "got 'gif'")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x", "--format", "jpeg", "--quality", "0"],
            mentions: "--quality 0 is out of range")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x", "--quality", "80"], mentions: "PNG tiles are always lossless"
        )
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x.pmtiles", "--scheme", "tms"],
            mentions: "--scheme is for directories")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/no/such/x.pmtiles"], mentions: "does not exist", status: 1)
    }
}
