import Foundation
import ImageDiff
import Raster
import Testing

/// `meridian tiles --format png|webp|jpeg --quality Q -o DIR | FILE.mbtiles | FILE.pmtiles`,
/// checked with independent readers: the PyPI pmtiles package, Debian's dwebp, djpeg and sqlite3.
@Suite struct TilesFormatsTests {
    let world = Meridian.fixture("maps/world.json")

    /// Runs a tool and fails the test (by throwing) on a non-zero exit.
    @discardableResult
    func tool(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(executable) \(arguments) failed: \(text)")
        return text
    }

    func render(_ arguments: [String], zoom: String = "0-2", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try Meridian.run(["tiles", world, "--zoom", zoom, "--workers", "2", "--quiet"] + arguments)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)", sourceLocation: sourceLocation)
    }

    /// For each format, a PMTiles archive holds exactly the tiles of the directory pyramid of
    /// the same job, byte for byte, as the PyPI reader extracts them.
    @Test(arguments: [["--format", "png"], ["--format", "webp"], ["--format", "jpeg", "--quality", "80"]])
    func pmtilesHoldsTheDirectoryPyramidsTiles(format: [String]) throws {
        let folder = try Meridian.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try render(["-o", folder + "/dir"] + format)
        try render(["-o", folder + "/a.pmtiles"] + format)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["dir", "a.pmtiles"])
        try tool(
            Meridian.root.appendingPathComponent(".build/venv/bin/python").path,
            [Meridian.fixture("pmtiles/reference.py"), "extract", folder + "/a.pmtiles", folder + "/extracted"])
        let pyramid = try TilesFixture.files(under: folder + "/dir")
        #expect(pyramid.count == 21)
        #expect(try TilesFixture.files(under: folder + "/extracted") == pyramid)
        let ext = format[1] == "jpeg" ? "jpg" : format[1]
        #expect(pyramid.keys.allSatisfy { $0.hasSuffix("." + ext) })
    }

    /// Lossless WebP tiles decode (with dwebp) to exactly the pixels of the PNG tiles.
    @Test func losslessWebPTilesHaveThePNGTilesPixels() throws {
        let folder = try Meridian.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try render(["-o", folder + "/png"], zoom: "2")
        try render(["-o", folder + "/webp", "--format", "webp"], zoom: "2")
        let png = try TilesFixture.files(under: folder + "/png")
        let webp = try TilesFixture.files(under: folder + "/webp")
        #expect(png.count == 16 && webp.count == 16)
        for name in png.keys {
            let tile = String(name.dropLast(4))
            let decoded = folder + "/decoded.png"
            try tool("/usr/bin/dwebp", ["-quiet", folder + "/webp/" + tile + ".webp", "-o", decoded])
            #expect(try PNG.decode(FileIO.readBytes(atPath: decoded)) == PNG.decode(png[name]!), "\(tile)")
        }
    }

    /// JPEG tiles in MBTiles: the format is recorded as `jpg`, with the quality in the
    /// `meridian` key, and the tiles look like the PNG ones (djpeg, within the lossy tolerance
    /// stated in RasterTests: ImageDiff threshold 0.15, at most 0.5% of pixels).
    @Test func jpegMBTilesRecordsItsFormatAndLooksRight() throws {
        let folder = try Meridian.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mbtiles = folder + "/j.mbtiles"
        try render(["-o", mbtiles, "--format", "jpeg", "--quality", "85"])
        try render(["-o", folder + "/png"])
        #expect(try TilesFixture.sqlite(mbtiles, "SELECT value FROM metadata WHERE name = 'format'") == "jpg")
        #expect(
            try TilesFixture.sqlite(mbtiles, "SELECT value FROM metadata WHERE name = 'meridian'")
                == "tile-size=256 scale=1 buffer=128 quality=85")
        let jpeg = folder + "/t.jpg"
        for (x, y) in [(0, 0), (1, 2), (3, 1)] {
            let tmsY = 3 - y
            try tool(
                "/usr/bin/sqlite3",
                [
                    mbtiles,
                    "SELECT writefile('\(jpeg)', tile_data) FROM tiles WHERE zoom_level = 2 AND tile_column = \(x) AND tile_row = \(tmsY)",
                ])
            let ppm = folder + "/t.ppm"
            try tool("/usr/bin/djpeg", ["-outfile", ppm, jpeg])
            let expected = try PNG.decode(FileIO.readBytes(atPath: folder + "/png/2/\(x)/\(y).png"))
            let actual = try ppmImage(FileIO.readBytes(atPath: ppm))
            let result = ImageComparator(threshold: 0.15).compare(expected: expected, actual: actual)
            #expect(
                Double(result.differingPixels) <= 0.005 * Double(result.totalPixels),
                "2/\(x)/\(y): \(result.differingPixels) pixels differ")
        }
    }

    /// A binary PPM (P6, maxval 255) as an opaque image.
    func ppmImage(_ bytes: [UInt8]) throws -> Image {
        var fields: [String] = []
        var offset = 0
        while fields.count < 4 {
            while bytes[offset] == 10 || bytes[offset] == 32 { offset += 1 }
            let start = offset
            while bytes[offset] != 10 && bytes[offset] != 32 { offset += 1 }
            fields.append(String(decoding: bytes[start..<offset], as: UTF8.self))
        }
        offset += 1
        try #require(fields[0] == "P6" && fields[3] == "255")
        let width = Int(fields[1])!
        let height = Int(fields[2])!
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        for i in 0..<width * height { rgba += bytes[offset + i * 3..<offset + i * 3 + 3] + [255] }
        return try Image(width: width, height: height, pixels: rgba)
    }

    @Test func refusesWhatItCannotWrite() throws {
        let check = TilesCommandTests()
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x.zip"], mentions: "'.zip' is not an output")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x", "--format", "gif"], mentions: "got 'gif'")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x", "--format", "jpeg", "--quality", "0"],
            mentions: "--quality 0 is out of range")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x", "--quality", "80"], mentions: "PNG tiles are always lossless"
        )
        for option in [["--resume"], ["--shard", "0/2"]] {
            try check.expectRejected(
                ["tiles", world, "--zoom", "1", "-o", "DIR/x.pmtiles"] + option,
                mentions: "\(option[0]) needs a directory or an MBTiles output")
        }
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/x.pmtiles", "--scheme", "tms"],
            mentions: "--scheme is for directories")
        try check.expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/no/such/x.pmtiles"], mentions: "does not exist", status: 1)
    }
}
