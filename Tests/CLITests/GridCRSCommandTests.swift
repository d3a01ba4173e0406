import Foundation
import Raster
import TestSupport
import Testing

/// `meridian grid --type utm --crs CODE`: a grid of a projected CRS's eastings and northings.
/// Every vertex written (longitude/latitude) is taken back into the CRS by cs2cs: an easting
/// line's vertices all have its easting, a northing line's its northing, to a millimetre.
@Suite struct GridCRSCommandTests {
    @Test(arguments: [
        ("EPSG:27700", "-0.6,51.2,0.4,51.8", 1.0),
        // US survey feet: the lines are at round metres of the coordinates scaled to metres.
        ("EPSG:2263", "-74.3,40.5,-73.7,40.95", 1200.0 / 3937),
    ])
    func linesAreAtTheirCoordinatesInTheCRS(crs: String, bbox: String, metresPerUnit: Double) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("grid.geojson").path
        let run = try Meridian.run([
            "grid", "--type", "utm", "--crs", crs, "--bbox", bbox, "--size", "1000x800", "-o", output,
        ])
        try #require(run.status == 0, "\(run)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
        let features = try #require((json as? [String: Any])?["features"] as? [[String: Any]])
        var lines: [(axis: String, value: Double, zone: String, points: [[Double]])] = []
        for feature in features {
            let properties = try #require(feature["properties"] as? [String: Any])
            guard properties["kind"] as? String == "line" else { continue }
            let geometry = try #require(feature["geometry"] as? [String: Any])
            lines.append(
                (
                    try #require(properties["axis"] as? String), try #require(properties["value"] as? Double),
                    try #require(properties["zone"] as? String),
                    try #require(geometry["coordinates"] as? [[Double]])
                ))
        }
        #expect(lines.filter { $0.axis == "easting" }.count >= 3 && lines.filter { $0.axis == "northing" }.count >= 3)
        #expect(lines.allSatisfy { $0.zone == crs })
        let vertices = lines.flatMap { line in line.points.map { (line, $0) } }
        // EPSG:4326 (latitude first), the CRS the plane converts from: for a NAD83 CRS,
        // OGC:CRS84 would pick another datum transformation, a metre away.
        let input = vertices.map { "\($0.1[1]) \($0.1[0])" }.joined(separator: "\n") + "\n"
        let output2 = try Tool.output("cs2cs", ["-f", "%.6f", "EPSG:4326", crs], input: input)
        let rows = output2.split(separator: "\n").map {
            $0.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        }
        try #require(rows.count == vertices.count)
        var worst = 0.0
        for ((line, _), row) in zip(vertices, rows) {
            let coordinate = (line.axis == "easting" ? row[0] : row[1]) * metresPerUnit
            worst = max(worst, abs(coordinate - line.value))
        }
        #expect(worst < 0.001, "a vertex is \(worst) m off its line")
        // Lines at round kilometres of the CRS (1 km and coarser levels over these views).
        #expect(lines.allSatisfy { $0.value.truncatingRemainder(dividingBy: 1000) == 0 }, "\(lines.map(\.value))")
    }

    @Test(arguments: [
        (["--type", "utm", "--crs", "EPSG:4326"], "meridian grid: --crs EPSG:4326: EPSG:4326 is a geographic CRS"),
        (["--type", "mgrs", "--crs", "EPSG:27700"], "meridian grid: --crs goes with --type utm"),
        (["--type", "utm", "--crs", "EPSG:999999"], "meridian grid: --crs EPSG:999999: unknown CRS"),
    ])
    func badCRSGetsOneLineAndNoFile(options: [String], expected: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("grid.geojson").path
        let run = try Meridian.run(["grid"] + options + ["--bbox", "-1,51,0,52", "--size", "400x400", "-o", output])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(expected), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

/// A map document's grid in a CRS: an unknown CRS is refused when the map is loaded, and a
/// `crs` with a type other than utm names its JSON path.
@Suite struct DocumentGridCRSTests {
    @Test(arguments: [
        (#"{"type": "utm", "crs": "EPSG:999999"}"#, "the grid's crs: unknown CRS \"EPSG:999999\""),
        (#"{"type": "mgrs", "crs": "EPSG:27700"}"#, "grid.crs: a grid's crs goes with \"type\": \"utm\""),
    ])
    func badGridCRSGetsOneLineAndNoFile(grid: String, expected: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = folder.appendingPathComponent("map.json").path
        try ##"{"background": "#ffffff", "layers": [], "grid": \##(grid)}"##.write(
            toFile: map, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.png").path
        let run = try Meridian.run(["render", map, "--bbox", "-1,51,0,52", "--size", "200x200", "-o", output])
        #expect(run.status != 0, "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// The grid drawn on a render comes out where `meridian grid --crs` puts it: a render of
    /// a BNG grid has dark pixels under the 1 km lines the grid command writes.
    @Test func aRenderedBNGGridHasInkOnItsLines() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = folder.appendingPathComponent("map.json").path
        try #"""
        {"background": "#ffffff", "layers": [], "grid": {"type": "utm", "crs": "EPSG:27700", "labelsVisible": false,
          "levels": {"3": {"line": {"color": "#000000", "width": 1}}}}}
        """#.write(toFile: map, atomically: true, encoding: .utf8)
        let png = folder.appendingPathComponent("out.png").path
        let run = try Meridian.run([
            "render", map, "--crs", "EPSG:27700", "--bbox-crs", "525000,175000,535000,185000", "--size", "500x500",
            "-o", png,
        ])
        try #require(run.status == 0, "\(run)")
        let image = try PNG.decode(contentsOf: png)
        // 20 m a pixel: the 1 km lines are every 50 pixels, straight, starting at the edges
        // (530000mE, a 10 km line, in level 2's brick red). Ink: any channel dark.
        func ink(_ x: Int, _ y: Int) -> Bool {
            let p = image[x, y]
            return min(p.r, p.g, p.b) < 160
        }
        for k in 1..<10 {
            let column = 50 * k
            let dark = (0..<500).filter { ink(column, $0) || ink(column - 1, $0) }.count
            #expect(dark > 450, "easting \(525_000 + 1000 * k) has ink on \(dark) of 500 rows")
            let between = (0..<500).filter { ink(column + 25, $0) }.count
            #expect(between < 60, "column \(column + 25) between lines has ink on \(between) rows")
        }
    }
}
