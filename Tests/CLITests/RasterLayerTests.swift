import Foundation
import ImageDiff
import Raster
import TestSupport
import Testing

/// Raster layers as `meridian tiles` draws them, checked tile by tile against GDAL's own
/// renderings of the same synthetic GeoTIFFs: gdalwarp for the warped pixels and values,
/// gdaldem for hillshades.
@Suite struct RasterLayerTests {
    /// A map of raster layers (JSON objects) over a transparent background.
    func writeMap(_ folder: URL, layers: [String]) throws -> String {
        let text =
            #"{"background": "transparent", "systemFonts": false, "fonts": ["\#(Repository.fonts)"], "layers": [\#(layers.joined(separator: ", "))]}"#
        let path = folder.appendingPathComponent("map.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `meridian tiles` and returns the written tiles by "z/x/y".
    func tiles(_ map: String, zoom: String, bbox: String, folder: URL, extra: [String] = []) throws -> [String: Image] {
        let output = folder.appendingPathComponent("tiles").path
        let run = try Meridian.run(["tiles", map, "--zoom", zoom, "--bbox", bbox, "-o", output, "--quiet"] + extra)
        guard run.status == 0, run.stderr.isEmpty else { throw ToolFailure(run) }
        defer { try? FileManager.default.removeItem(atPath: output) }
        var images: [String: Image] = [:]
        for (path, bytes) in try FileTree.tiles(under: output) where path.hasSuffix(".png") {
            images[String(path.dropLast(4))] = try PNG.decode(bytes)
        }
        return images
    }

    /// An RGB raster with an alpha band in EPSG:4326: red rises to the east, green to the south,
    /// and the north-west corner is transparent.
    func rgbaRaster(_ folder: URL) throws -> String {
        let grid = { (value: @escaping (Int, Int) -> Double) in
            RasterFixtures.asciiGrid(columns: 200, rows: 200, minX: 10, minY: 45, cell: 0.01) { value($0, $1) }
        }
        return try RasterFixtures.geoTIFF(
            folder, "rgba",
            bands: [
                grid { c, _ in Double(c * 255 / 199) }, grid { _, r in Double(r * 255 / 199) },
                grid { c, r in Double((c + r) * 255 / 398) }, grid { c, r in c < 50 && r < 50 ? 0 : 255 },
            ], srs: "EPSG:4326", type: "Byte", alpha: true, nodata: false)
    }

    @Test(arguments: ["bilinear", "nearest", "cubic"])
    func rgbaTilesMatchGdalwarp(resampling: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let raster = try rgbaRaster(folder)
        try expectTilesMatchGdalwarp(layerFile: "rgba.tif", reference: raster, resampling: resampling, folder: folder)
    }

    /// The zoom 8 tiles of a layer over `layerFile` (around the RGBA raster) are, within one
    /// level, gdalwarp's rendering of `reference` (the same pixels in a GeoTIFF).
    func expectTilesMatchGdalwarp(
        layerFile: String, extra: String = "", reference raster: String, resampling: String, folder: URL
    ) throws {
        let map = try writeMap(
            folder,
            layers: [##"{"name": "image", "raster": "\##(layerFile)", "resampling": "\##(resampling)"\##(extra)}"##])
        let written = try tiles(map, zoom: "8", bbox: "9,44,13,48", folder: folder)
        #expect(written.count >= 4)
        var compared = 0
        for x in 134...137 {
            for y in 88...93 {
                let reference = try RasterFixtures.gdalwarpTile(
                    raster, z: 8, x: x, y: y, resampling: resampling, folder: folder)
                let hasData = stride(from: 3, to: reference.pixels.count, by: 4).contains { reference.pixels[$0] != 0 }
                guard let tile = written["8/\(x)/\(y)"] else {
                    #expect(!hasData, "tile 8/\(x)/\(y) has data but was not written")
                    continue
                }
                compared += 1
                let worst = RasterLayerTests.largestDifference(tile, reference)
                #expect(worst <= 1, "tile 8/\(x)/\(y): a channel differs from gdalwarp's by \(worst)")
            }
        }
        #expect(compared == written.count)
    }

    /// The largest difference of alpha, and of colour where both are opaque.
    static func largestDifference(_ a: Image, _ b: Image) -> Int {
        var worst = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Int(a.pixels[i + 3])
            let alphaB = Int(b.pixels[i + 3])
            worst = max(worst, abs(alphaA - alphaB))
            guard alphaA == 255, alphaB == 255 else { continue }
            for c in 0..<3 { worst = max(worst, abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))) }
        }
        return worst
    }

    /// A cone 1000 m high and 9 km across in UTM zone 33N, with nodata outside it.
    func coneInUTM(_ folder: URL) throws -> String {
        let grid = RasterFixtures.asciiGrid(columns: 201, rows: 201, minX: 490_000, minY: 5_190_000, cell: 100) {
            c, r in
            let d = (Double(c - 100) * Double(c - 100) + Double(r - 100) * Double(r - 100)).squareRoot() * 100
            return d > 9000 ? nil : 1000 - d / 9
        }
        return try RasterFixtures.geoTIFF(folder, "cone", bands: [grid], srs: "EPSG:32633")
    }

    /// The test's own ramp: linear between stops, clamped at the ends, or stepped.
    static func ramp(_ value: Double, stepped: Bool) -> [Double] {
        let stops: [(Double, [Double])] = [(0, [0, 0, 255]), (500, [0, 255, 0]), (1000, [255, 0, 0])]
        if value <= stops[0].0 { return stops[0].1 }
        if value >= stops[2].0 { return stops[2].1 }
        let i = value < stops[1].0 ? 0 : 1
        let t = (value - stops[i].0) / (stops[i + 1].0 - stops[i].0)
        if stepped { return stops[i].1 }
        return (0..<3).map { stops[i].1[$0] + (stops[i + 1].1[$0] - stops[i].1[$0]) * t }
    }

    @Test(arguments: [("bilinear", false), ("nearest", true)])
    func colourRampOverUTMConeMatchesGdalwarpValues(resampling: String, stepped: Bool) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let raster = try coneInUTM(folder)
        try expectRampMatchesGdalwarp(
            layerFile: "cone.tif", reference: raster, resampling: resampling, stepped: stepped, folder: folder)
    }

    /// The zoom 11 tiles of the cone in `layerFile` through the test's ramp have, pixel for
    /// pixel, the ramp's colours of gdalwarp's values of `reference` (the cone's GeoTIFF), and
    /// data exactly where those values have.
    func expectRampMatchesGdalwarp(
        layerFile: String, reference raster: String, resampling: String, stepped: Bool, folder: URL
    ) throws {
        let mode = stepped ? "step" : "interpolate"
        let map = try writeMap(
            folder,
            layers: [
                ##"{"name": "heights", "raster": "\##(layerFile)", "resampling": "\##(resampling)", "colorMode": "\##(mode)", "colors": [[0, "#0000ff"], [500, "#00ff00"], [1000, "#ff0000"]]}"##
            ])
        let written = try tiles(map, zoom: "11", bbox: "14.8,46.85,15.2,47.05", folder: folder)
        #expect(!written.isEmpty)
        var opaque = 0
        for (key, tile) in written {
            let parts = key.split(separator: "/").map { Int($0)! }
            let values = try RasterFixtures.gdalwarpValues(
                raster, z: parts[0], x: parts[1], y: parts[2], resampling: resampling, folder: folder)
            #expect(values.count == 256 * 256)
            var worst = 0.0
            var alphaMismatches = 0
            for (i, value) in values.enumerated() {
                let alpha = tile.pixels[i * 4 + 3]
                guard let value else {
                    if alpha != 0 { alphaMismatches += 1 }
                    continue
                }
                guard alpha == 255 else {
                    alphaMismatches += 1
                    continue
                }
                opaque += 1
                // A stepped ramp jumps at a stop: a value a hair either side of it may take
                // either colour, so pixels within 0.01 of a stop are not compared.
                if stepped, [0.0, 500, 1000].contains(where: { abs(value - $0) < 0.01 }) { continue }
                let expected = RasterLayerTests.ramp(value, stepped: stepped)
                for c in 0..<3 { worst = max(worst, abs(Double(tile.pixels[i * 4 + c]) - expected[c])) }
            }
            #expect(alphaMismatches == 0, "tile \(key): \(alphaMismatches) pixels differ in having data")
            #expect(worst <= 1, "tile \(key): colour off by \(worst)")
        }
        #expect(opaque > 10_000)
    }

    /// A cone DEM in Web Mercator whose pixels are those of zoom 12 tiles near the equator,
    /// so that gdaldem's hillshade of it is, pixel for pixel, what the tiles must show.
    func coneOnTileGrid(_ folder: URL) throws -> String {
        let resolution = 2 * RasterFixtures.halfWorld / 4096 / 256
        let grid = RasterFixtures.asciiGrid(columns: 512, rows: 512, minX: 0, minY: 0, cell: resolution) { c, r in
            let d = (Double(c - 256) * Double(c - 256) + Double(r - 240) * Double(r - 240)).squareRoot()
            return 1500 - d * 6 + Double((c * 7 + r * 3) % 11)
        }
        return try RasterFixtures.geoTIFF(folder, "dem", bands: [grid], srs: "EPSG:3857", nodata: false)
    }

    @Test(arguments: [[String](), ["-z", "3", "-az", "120", "-alt", "30"], ["-multidirectional"]])
    func hillshadeMatchesGdaldem(options: [String]) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let dem = try coneOnTileGrid(folder)
        let shaded = folder.appendingPathComponent("hs.tif").path
        try Tool.output("gdaldem", ["hillshade", "-q"] + options + [dem, shaded])
        var parameters: [String] = []
        if let i = options.firstIndex(of: "-z") { parameters.append(#""zFactor": \#(options[i + 1])"#) }
        if let i = options.firstIndex(of: "-az") { parameters.append(#""azimuth": \#(options[i + 1])"#) }
        if let i = options.firstIndex(of: "-alt") { parameters.append(#""altitude": \#(options[i + 1])"#) }
        if options.contains("-multidirectional") { parameters.append(#""multidirectional": true"#) }
        let map = try writeMap(
            folder,
            layers: [
                ##"{"name": "relief", "raster": "dem.tif", "resampling": "nearest", "hillshade": {\##(parameters.joined(separator: ", "))}}"##
            ])
        let written = try tiles(map, zoom: "12", bbox: "0.001,0.001,0.17,0.17", folder: folder)
        #expect(written.count == 4)
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let png = folder.appendingPathComponent("hs-\(dx)-\(dy).png").path
            try Tool.output(
                "gdal_translate",
                ["-q", "-of", "PNG", "-srcwin", "\(dx * 256)", "\(dy * 256)", "256", "256", shaded, png])
            let reference = try PNG.decode(contentsOf: png)
            let key = "12/\(2048 + dx)/\(2046 + dy)"
            let tile = try #require(written[key], "tile \(key) missing")
            var worst = 0
            var compared = 0
            for i in 0..<(256 * 256) where reference.pixels[i * 4] != 0 {  // 0: gdaldem's edge
                compared += 1
                worst = max(worst, abs(Int(tile.pixels[i * 4]) - Int(reference.pixels[i * 4])))
                #expect(tile.pixels[i * 4 + 3] == 255)
            }
            #expect(compared > 60_000)
            #expect(worst <= 1, "tile \(key): grey differs from gdaldem's by \(worst)")
        }
    }
}

/// `meridian tiles` over a raster against `gdal2tiles.py --xyz -r bilinear`, and raster
/// layers' errors.
@Suite struct RasterPyramidTests {
    @Test func tilesAgreeWithGdal2tilesTileForTile() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let layers = RasterLayerTests()
        let raster = try layers.rgbaRaster(folder)
        let reference = folder.appendingPathComponent("gdal2tiles").path
        try Tool.output(
            "gdal2tiles.py",
            ["--xyz", "-r", "bilinear", "-z", "6-9", "-w", "none", "--processes", "1", "-q", raster, reference])
        var expected: [String: Image] = [:]
        for path in try FileTree.paths(under: reference) where path.hasSuffix(".png") {
            expected[String(path.dropLast(4))] = try PNG.decode(contentsOf: reference + "/" + path)
        }
        let map = try layers.writeMap(folder, layers: [##"{"name": "image", "raster": "rgba.tif"}"##])
        let written = try layers.tiles(map, zoom: "6-9", bbox: "9.5,44.5,12.5,47.5", folder: folder)
        #expect(!expected.isEmpty)
        #expect(Set(written.keys) == Set(expected.keys))
        let comparator = ImageComparator(threshold: 0.1)
        for (key, want) in expected {
            guard let got = written[key] else { continue }
            let result = comparator.compare(expected: want, actual: got)
            // gdal2tiles reads a window of a VRT warped with an approximate transformer and
            // scales it with its own resampling, so the edge of the transparent corner is
            // blurred differently, over a few pixels: 2.2% of the tile that holds that edge
            // (two 180 px edges at zoom 9), under 2% elsewhere.
            #expect(result.differingFraction <= 0.03, "tile \(key): \(result.summary)")
        }
    }

    func expectOneLineError(_ layer: String, mentions expected: String, prepare: (URL) throws -> Void = { _ in })
        throws
    {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try prepare(folder)
        let map = try RasterLayerTests().writeMap(folder, layers: [layer])
        let output = folder.appendingPathComponent("out").path
        let run = try Meridian.run(["tiles", map, "--zoom", "3", "-o", output])
        #expect(run.status != 0)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(map) && run.stderr.contains("layers[0]"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains(expected), "stderr \(run.stderr) lacks \(expected)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func unreadableRaster() throws {
        try expectOneLineError(##"{"name": "r", "raster": "bad.tif"}"##, mentions: "layers[0].raster: cannot open") {
            try "not an image".write(to: $0.appendingPathComponent("bad.tif"), atomically: true, encoding: .utf8)
        }
        try expectOneLineError(##"{"name": "r", "raster": "missing.tif"}"##, mentions: "missing.tif")
    }

    @Test func unknownBand() throws {
        try expectOneLineError(
            ##"{"name": "r", "raster": "rgba.tif", "band": 7}"##, mentions: "layers[0].band: "
        ) {
            _ = try RasterLayerTests().rgbaRaster($0)
        }
    }

    @Test func noGeoreferencing() throws {
        try expectOneLineError(##"{"name": "r", "raster": "plain.png"}"##, mentions: "has no georeferencing") {
            let raster = try RasterLayerTests().rgbaRaster($0)
            let png = $0.appendingPathComponent("plain.png").path
            try Tool.output("gdal_translate", ["-q", "-of", "PNG", raster, png])
            try? FileManager.default.removeItem(atPath: png + ".aux.xml")
        }
        try expectOneLineError(
            ##"{"name": "r", "raster": "plain.png", "geotransform": [10, 0.01, 0, 47, 0, -0.01]}"##,
            mentions: "has no coordinate reference system"
        ) {
            let raster = try RasterLayerTests().rgbaRaster($0)
            let png = $0.appendingPathComponent("plain.png").path
            try Tool.output("gdal_translate", ["-q", "-of", "PNG", raster, png])
            try? FileManager.default.removeItem(atPath: png + ".aux.xml")
        }
    }

    @Test func unsortedColourRamp() throws {
        try expectOneLineError(
            ##"{"name": "r", "raster": "any.tif", "colors": [[10, "#000000"], [5, "#ffffff"]]}"##,
            mentions: "layers[0].colors[1][0]: the colour ramp is not sorted")
    }
}
