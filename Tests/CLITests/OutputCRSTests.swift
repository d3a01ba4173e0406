import Foundation
import Raster
import TestSupport
import Testing

/// `meridian render --crs`: a map drawn in another CRS puts things where PROJ's own tools put
/// them. The graticule of Europe in ETRS89-LAEA (EPSG:3035) is checked against `cs2cs`, the
/// New York boroughs in the Long Island state plane (EPSG:2263, US feet) against a mask that
/// `gdal_rasterize` burns from the boroughs `ogr2ogr` reprojected.
@Suite struct OutputCRSTests {
    /// Luminance of a pixel (0 black, 255 white).
    func luminance(_ image: Image, _ x: Int, _ y: Int) -> Double {
        let p = image[x, y]
        return 0.299 * Double(p.r) + 0.587 * Double(p.g) + 0.114 * Double(p.b)
    }

    /// Converts longitude/latitude pairs to EPSG:3035 easting/northing with cs2cs (which
    /// writes EPSG:3035's own order, northing first).
    func cs2cs3035(_ points: [(lon: Double, lat: Double)]) throws -> [(x: Double, y: Double)] {
        let input = points.map { "\($0.lon) \($0.lat)" }.joined(separator: "\n") + "\n"
        let output = try Tool.output("cs2cs", ["-f", "%.3f", "OGC:CRS84", "EPSG:3035"], input: input)
        let rows = output.split(separator: "\n").map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        }
        try #require(rows.count == points.count && rows.allSatisfy { $0.count >= 2 }, "cs2cs printed: \(output)")
        return rows.map { (x: $0[1], y: $0[0]) }
    }

    /// Meridians and parallels of a 10° graticule cross the image where cs2cs puts them: at
    /// each sampled point of a line, the line's ink across it (along the pixel row for a
    /// meridian, the column for a parallel, 4 pixels either side) is centred within a pixel
    /// of cs2cs's position.
    @Test func graticuleOfEuropeInLAEAIsWhereCs2csPutsIt() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = folder.appendingPathComponent("grid.json").path
        try ##"{"background": "#ffffff", "layers": []}"##.write(toFile: map, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("europe.png").path
        // 4,000 km a side in 800 px: 5,000 m a pixel, (2,500 km, 5,400 km) at the top-left.
        let run = try Meridian.run([
            "render", map, "--crs", "EPSG:3035", "--bbox-crs", "2500000,1400000,6500000,5400000", "--size", "800x800",
            "--grid", "latlong", "--grid-labels", "none", "-o", output,
        ])
        try #require(run.status == 0, "\(run)")
        let image = try PNG.decode(contentsOf: output)

        // Points on the 10° lines, halfway between the finer lines that cross them.
        var samples: [(lon: Double, lat: Double, meridian: Bool)] = []
        for lon in [-10.0, 0, 10, 20, 30] {
            for lat in [37.5, 42.5, 47.5, 52.5, 57.5, 62.5] { samples.append((lon, lat, true)) }
        }
        for lat in [40.0, 50, 60] {
            for lon in [-7.5, 2.5, 7.5, 12.5, 17.5, 22.5] { samples.append((lon, lat, false)) }
        }
        let projected = try cs2cs3035(samples.map { ($0.lon, $0.lat) })
        var checked = 0
        for (sample, p) in zip(samples, projected) {
            let px = (p.x - 2_500_000) / 5000
            let py = (5_400_000 - p.y) / 5000
            guard px >= 5, px < 795, py >= 5, py < 795 else { continue }
            // Pixel i covers i...i+1: the row or column whose centre is nearest.
            let across = sample.meridian ? px : py
            let along = Int(sample.meridian ? py : px)
            var ink = 0.0
            var moment = 0.0
            for i in Int(across) - 4...Int(across) + 4 {
                let darkness = 255 - (sample.meridian ? luminance(image, i, along) : luminance(image, along, i))
                ink += darkness
                moment += darkness * (Double(i) + 0.5)
            }
            #expect(ink > 100, "no line near \(sample) (cs2cs: pixel \(px), \(py))")
            let centre = moment / max(ink, 1)
            #expect(
                abs(centre - across) <= 1,
                "the line through \(sample) is at \(centre) across it; cs2cs puts it at \(across) (pixel \(px), \(py))")
            checked += 1
        }
        #expect(checked >= 40)
    }

    /// The boroughs filled black on white in EPSG:2263 cover the pixels gdal_rasterize burns
    /// from the boroughs ogr2ogr reprojected to EPSG:2263: they differ only along the edges,
    /// where anti-aliasing and the burn rule (pixel centres) part (0.11% of the pixels, where
    /// a shift of one pixel makes 1.3%).
    @Test func boroughsInStatePlaneLandWhereGDALPutsThem() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let boroughs = Repository.fixture("data/nybb.geojson")
        let shapefile = folder.appendingPathComponent("nybb.shp").path
        try Tool.output("ogr2ogr", ["-t_srs", "EPSG:2263", shapefile, boroughs, "-select", "BoroName"])
        let extent = ["910000", "118000", "1070000", "278000"]
        let tiff = folder.appendingPathComponent("mask.tif").path
        let mask = folder.appendingPathComponent("mask.png").path
        try Tool.output(
            "gdal_rasterize",
            ["-q", "-burn", "255", "-te"] + extent + ["-ts", "640", "640", "-ot", "Byte", shapefile, tiff])
        try Tool.output("gdal_translate", ["-q", "-of", "PNG", tiff, mask])

        let map = folder.appendingPathComponent("nyc.json").path
        try #"""
        {"background": "#ffffff", "layers": [
          {"name": "boroughs", "source": "\#(boroughs)", "fill": {"color": "#000000"}}]}
        """#.write(toFile: map, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("nyc.png").path
        let run = try Meridian.run([
            "render", map, "--crs", "EPSG:2263", "--bbox-crs", extent.joined(separator: ","), "--size", "640x640",
            "-o", output,
        ])
        try #require(run.status == 0, "\(run)")
        let ours = try PNG.decode(contentsOf: output)
        let theirs = try PNG.decode(contentsOf: mask)
        try #require(ours.size == theirs.size)
        var filled = 0
        var differing = 0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let burnt = theirs[x, y].r > 0
                filled += burnt ? 1 : 0
                differing += (luminance(ours, x, y) < 128) != burnt ? 1 : 0
            }
        }
        #expect(filled > 100_000, "the mask burns \(filled) pixels")
        #expect(Double(differing) / Double(ours.width * ours.height) < 0.003, "\(differing) pixels differ")
    }

    /// `--crs EPSG:3857` is the default plane itself: the same bytes as no `--crs`.
    @Test func webMercatorByCodeIsTheDefault() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = Repository.fixture("maps/nyc.json")
        let view = ["--bbox", "-74.26,40.49,-73.69,40.92", "--size", "320x260"]
        let plain = folder.appendingPathComponent("plain.png").path
        let coded = folder.appendingPathComponent("coded.png").path
        try #require(try Meridian.run(["render", map] + view + ["-o", plain]).status == 0)
        let run = try Meridian.run(["render", map] + view + ["--crs", "EPSG:3857", "-o", coded])
        try #require(run.status == 0, "\(run)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)) == Data(contentsOf: URL(fileURLWithPath: coded)))
    }

    @Test(arguments: [
        (["--crs", "EPSG:999999"], "meridian render: --crs EPSG:999999: unknown CRS \"EPSG:999999\""),
        (["--crs", "EPSG:4978"], "meridian render: --crs EPSG:4978: \"EPSG:4978\" (EPSG:4978) is a geocentric CRS"),
        (
            ["--crs", "EPSG:3035", "--bbox-crs", "5,5,1,1"],
            "meridian render: --bbox-crs 5,5,1,1 is empty: it is X1,Y1,X2,Y2 with X1 < X2 and Y1 < Y2"
        ),
    ])
    func badCRSOptionsGetOneLineAndNoFile(options: [String], expected: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("out.png").path
        let view = options.contains("--bbox-crs") ? [] : ["--bbox", "-10,35,30,70"]
        let run = try Meridian.run(
            ["render", Repository.fixture("maps/nyc.json")] + view + ["--size", "100x100"] + options + ["-o", output])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
