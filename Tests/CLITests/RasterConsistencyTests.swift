import Foundation
import ImageDiff
import Raster
import TestSupport
import Testing

/// Raster layers' pixels depend on the pixel alone (not on the metatile or the workers), GDAL's
/// overviews are used when zoomed out, and a hillshade of a raster in degrees is scale-correct.
@Suite struct RasterConsistencyTests {
    @Test func tilesHaveTheSameBytesWhateverTheMetatileAndWorkers() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let layers = RasterLayerTests()
        _ = try layers.rgbaRaster(folder)
        _ = try layers.coneInUTM(folder)
        let map = try layers.writeMap(
            folder,
            layers: [
                ##"{"name": "image", "raster": "rgba.tif", "resampling": "cubic"}"##,
                ##"{"name": "relief", "raster": "cone.tif", "hillshade": true, "compositing": "multiply", "opacity": 0.7}"##,
            ])
        func pyramid(_ extra: [String]) throws -> [String: [UInt8]] {
            let output = folder.appendingPathComponent("tiles").path
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try Meridian.run(
                ["tiles", map, "--zoom", "7-11", "--bbox", "9.5,44.5,15.5,47.5", "-o", output, "--quiet"] + extra)
            guard run.status == 0 else { throw ToolFailure(run) }
            return try FileTree.tiles(under: output)
        }
        let single = try pyramid(["--metatile", "1", "--workers", "1"])
        let blocks = try pyramid(["--metatile", "8", "--workers", "2"])
        #expect(single.count > 20)
        #expect(Set(single.keys) == Set(blocks.keys))
        let differing = single.keys.filter { single[$0] != blocks[$0] }.sorted()
        #expect(differing.isEmpty, "tiles differ between metatile 1 and 8: \(differing.prefix(5))")
    }

    /// A GeoTIFF whose overviews are red and whose full-resolution pixels are blue (written
    /// after the overviews were built): a zoomed-out tile must show red, a zoomed-in one blue.
    @Test func overviewsAreUsedWhenZoomedOut() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        _ = try redOverviewsBlueBase(folder, cell: 100)
        let map = try RasterLayerTests().writeMap(folder, layers: [##"{"name": "r", "raster": "ovr.tif"}"##])
        // 204.8 km: zoom 6 tiles have 2.4 km pixels (the 1/32 overview), zoom 12 38 m ones.
        let written = try RasterLayerTests().tiles(map, zoom: "6-12", bbox: "0.85,0.85,0.95,0.95", folder: folder)
        let low = try #require(written["6/32/31"])
        let high = try #require(written["12/2058/2037"])
        func centre(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
            let i = (y * image.width + x) * 4
            return Array(image.pixels[i..<(i + 4)])
        }
        #expect(centre(low, 5, 250) == [255, 0, 0, 255], "zoom 6 did not read the overview")
        #expect(centre(high, 128, 128) == [0, 0, 255, 255], "zoom 12 did not read full resolution")
    }

    /// An overview at most 5% coarser than a view's pixels is read instead of the finer level
    /// GDAL would pick (`RasterReader.overviewArguments`); one 10% coarser is not. Zoom 12
    /// pixels are 38.22 m: a raster of cells 0.52 of that has a first overview 4% coarser.
    @Test(arguments: [(0.52, [UInt8]([255, 0, 0])), (0.55, [0, 0, 255])])
    func anOverviewWithin5PercentOfTheViewIsRead(cellOfZoom12Pixel: Double, colour: [UInt8]) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let zoom12Pixel = 2 * RasterFixtures.halfWorld / 4096 / 256
        _ = try redOverviewsBlueBase(folder, cell: cellOfZoom12Pixel * zoom12Pixel)
        let map = try RasterLayerTests().writeMap(folder, layers: [##"{"name": "r", "raster": "ovr.tif"}"##])
        let written = try RasterLayerTests().tiles(map, zoom: "12", bbox: "0.15,0.15,0.2,0.2", folder: folder)
        var opaque = 0
        for (key, tile) in written {
            for i in stride(from: 0, to: tile.pixels.count, by: 4) where tile.pixels[i + 3] == 255 {
                opaque += 1
                guard Array(tile.pixels[i..<(i + 3)]) == colour else {
                    Issue.record("tile \(key): \(Array(tile.pixels[i..<(i + 3)])), not \(colour)")
                    return
                }
            }
        }
        #expect(opaque > 10_000)
    }

    /// A 2048 x 2048 GeoTIFF in Web Mercator from (0, 0), `cell` metres a pixel, whose overviews
    /// (2 to 32) are red and whose full-resolution pixels are blue (written after the
    /// overviews were built); returns its path (ovr.tif).
    func redOverviewsBlueBase(_ folder: URL, cell: Double) throws -> String {
        let size = 2048
        let band = { (v: Double) in
            RasterFixtures.asciiGrid(columns: size, rows: size, minX: 0, minY: 0, cell: cell) { _, _ in v }
        }
        let raster = try RasterFixtures.geoTIFF(
            folder, "ovr", bands: [band(255), band(0), band(0)], srs: "EPSG:3857", type: "Byte", nodata: false)
        try Tool.output("gdaladdo", ["-q", "-r", "average", raster, "2", "4", "8", "16", "32"])
        try Tool.output(
            "/usr/bin/python3",
            [
                "-c",
                """
                from osgeo import gdal
                import numpy as np
                ds = gdal.Open('\(raster)', gdal.GA_Update)
                ds.GetRasterBand(1).WriteArray(np.zeros((\(size), \(size)), np.uint8))
                ds.GetRasterBand(3).WriteArray(np.full((\(size), \(size)), 255, np.uint8))
                ds = None
                """,
            ])
        return raster
    }

    /// A cone in longitude/latitude at 60° north: the hillshade of a tile matches gdaldem's of
    /// the same elevations warped to the tile with the ground spacing given (`-s cos 60°`).
    @Test func hillshadeOfARasterInDegreesIsScaleCorrect() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let grid = RasterFixtures.asciiGrid(columns: 400, rows: 200, minX: 9.9, minY: 59.95, cell: 0.0005) { c, r in
            let dx = Double(c - 200) * 0.5
            let dy = Double(r - 100)
            return 900 - (dx * dx + dy * dy).squareRoot() * 8
        }
        let dem = try RasterFixtures.geoTIFF(folder, "dem", bands: [grid], srs: "EPSG:4326", nodata: false)
        let map = try RasterLayerTests().writeMap(
            folder, layers: [##"{"name": "relief", "raster": "dem.tif", "hillshade": {"zFactor": 2}}"##])
        let written = try RasterLayerTests().tiles(map, zoom: "14", bbox: "9.974,59.989,9.976,59.991", folder: folder)
        let (x, y) = (8645, 4758)
        let tile = try #require(written["14/\(x)/\(y)"], "\(written.keys.sorted())")
        let (minX, minY, maxX, maxY) = RasterFixtures.tileBounds(z: 14, x: x, y: y)
        let latitude = atan(sinh((minY + maxY) / 2 / 6378137.0))
        let warped = folder.appendingPathComponent("warped.tif").path
        let shaded = folder.appendingPathComponent("shaded.tif").path
        let png = folder.appendingPathComponent("shaded.png").path
        try Tool.output(
            "gdalwarp",
            [
                "-q", "-t_srs", "EPSG:3857", "-te", "\(minX)", "\(minY)", "\(maxX)", "\(maxY)", "-ts", "256", "256",
                "-r", "bilinear", "-et", "0", dem, warped,
            ])
        try Tool.output("gdaldem", ["hillshade", "-q", "-z", "2", "-s", "\(cos(latitude))", warped, shaded])
        try Tool.output("gdal_translate", ["-q", "-of", "PNG", shaded, png])
        let reference = try PNG.decode(contentsOf: png)
        var worst = 0
        var compared = 0
        for i in 0..<(256 * 256) where reference.pixels[i * 4] != 0 {
            compared += 1
            worst = max(worst, abs(Int(tile.pixels[i * 4]) - Int(reference.pixels[i * 4])))
        }
        #expect(compared > 60_000)
        #expect(worst <= 1, "grey differs from gdaldem's by \(worst)")
    }
}

/// Other formats GDAL opens draw as the GeoTIFF they were made from: a VRT over it, and a PNG
/// with a world file and the layer's `srs`.
@Suite struct RasterFormatTests {
    @Test func vrtAndPNGWithWorldFileDrawAsTheGeoTIFF() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let layers = RasterLayerTests()
        let raster = try layers.rgbaRaster(folder)
        try Tool.output("gdalbuildvrt", ["-q", folder.appendingPathComponent("rgba.vrt").path, raster])
        let png = folder.appendingPathComponent("rgba.png").path
        try Tool.output("gdal_translate", ["-q", "-of", "PNG", "-co", "WORLDFILE=YES", raster, png])
        try FileManager.default.removeItem(atPath: png + ".aux.xml")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rgba.wld").path))
        func pyramid(_ layer: String) throws -> [String: [UInt8]] {
            let map = try layers.writeMap(folder, layers: [layer])
            let output = folder.appendingPathComponent("tiles").path
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try Meridian.run(["tiles", map, "--zoom", "8", "--bbox", "9,44,13,48", "-o", output, "--quiet"])
            guard run.status == 0 else { throw ToolFailure(run) }
            return try FileTree.tiles(under: output)
        }
        let fromTIFF = try pyramid(##"{"name": "r", "raster": "rgba.tif"}"##)
        #expect(fromTIFF.count >= 4)
        #expect(try pyramid(##"{"name": "r", "raster": "rgba.vrt"}"##) == fromTIFF)
        // A world file keeps the geotransform to about 10 significant digits: the PNG's pixels
        // may land a hair away from the GeoTIFF's, so they are compared perceptually.
        let fromPNG = try pyramid(##"{"name": "r", "raster": "rgba.png", "srs": "EPSG:4326"}"##)
        #expect(Set(fromPNG.keys) == Set(fromTIFF.keys))
        for (key, bytes) in fromTIFF {
            guard let other = fromPNG[key] else { continue }
            let result = ImageComparator(threshold: 0.1).compare(
                expected: try PNG.decode(bytes), actual: try PNG.decode(other))
            #expect(result.differingFraction <= 0.001, "tile \(key): \(result.summary)")
        }
    }
}
