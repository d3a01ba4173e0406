import Foundation
import Raster
import TestSupport
import Testing

/// `meridian grid` and the grid flags of `meridian render`, run as users run them.
@Suite struct GridCommandTests {
    func geoJSON(_ arguments: [String]) throws -> [[String: Any]] {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let output = directory.appendingPathComponent("grid.geojson").path
        let run = try Meridian.run(["grid"] + arguments + ["-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(json["type"] as? String == "FeatureCollection")
        return json["features"] as! [[String: Any]]
    }

    static func properties(_ f: [String: Any]) -> [String: Any] { f["properties"] as! [String: Any] }

    @Test func writesLinesAndLabels() throws {
        let features = try geoJSON(["--type", "mgrs", "--bbox", "-77.2,38.8,-76.9,39.0", "--size", "800x600"])
        let lines = features.filter { Self.properties($0)["kind"] as? String == "line" }
        let labels = features.filter { Self.properties($0)["kind"] as? String == "label" }
        #expect(!lines.isEmpty && !labels.isEmpty)
        // About 40 m a pixel: 100 km and 10 km lines (no zone edge in the box); the square is named.
        #expect(Set(lines.map { Self.properties($0)["level"] as! Int }) == [1, 2])
        #expect(
            labels.contains {
                Self.properties($0)["text"] as? String == "UJ" || Self.properties($0)["text"] as? String == "18SUJ"
            })
        // Every easting and northing vertex, converted back by GeoConvert in the line's zone,
        // is on its value.
        var input: [String] = []
        var values: [(field: Int, value: Double)] = []
        for line in lines {
            let axis = Self.properties(line)["axis"] as? String
            guard axis == "easting" || axis == "northing" else { continue }
            #expect(Self.properties(line)["zone"] as? String == "18S")
            let coordinates = (line["geometry"] as! [String: Any])["coordinates"] as! [[Double]]
            for c in coordinates {
                input.append("\(c[1]) \(c[0])")
                values.append((axis == "easting" ? 1 : 2, Self.properties(line)["value"] as! Double))
            }
        }
        #expect(values.filter { $0.field == 1 }.count > 5 && values.filter { $0.field == 2 }.count > 5)
        let out = try GeoConvert.run(["-u", "-z", "18n", "-p", "3"], input)
        #expect(out.count == values.count)
        for (text, expected) in zip(out, values) {
            let got = Double(text.split(separator: " ")[expected.field])!
            #expect(
                abs(got - expected.value) < 0.01,
                "\(text) should have \(expected.field == 1 ? "easting" : "northing") \(expected.value)")
        }
    }

    @Test func zoomAndLevels() throws {
        let features = try geoJSON([
            "--type", "latlong", "--bbox", "2,48,3,49", "--zoom", "9", "--levels", "3,5",
            "--label-format", "degreesMinutesSeconds",
        ])
        let levels = Set(features.map { Self.properties($0)["level"] as! Int })
        #expect(levels == [3, 5])
        let texts = Set(features.compactMap { Self.properties($0)["text"] as? String })
        #expect(texts.contains("48°50'N") || texts.contains("2°20'E"))
        #expect(!features.contains { Self.properties($0)["zone"] != nil })
        let decimal = try geoJSON([
            "--type", "latlong", "--bbox", "2,48,3,49", "--zoom", "10", "--label-format", "decimalDegrees",
        ])
        // As render draws it: at 48°N Web Mercator spreads parallels 1.5 times apart, so they
        // are every 0.05° (written to two places) where the meridians are every 0.1°.
        #expect(decimal.contains { Self.properties($0)["text"] as? String == "48.80°N" })
        #expect(decimal.contains { Self.properties($0)["text"] as? String == "48.85°N" })
        #expect(decimal.contains { Self.properties($0)["text"] as? String == "2.3°E" })
        let meters = try geoJSON([
            "--type", "usng", "--bbox", "-74,40.7,-73.95,40.75", "--zoom", "13", "--label-unit", "meters",
        ])
        #expect(meters.contains { (Self.properties($0)["text"] as? String)?.hasSuffix("000m") == true })
    }

    func expectRejected(_ arguments: [String], mentions text: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let args = arguments.map { $0 == "OUT" ? directory.appendingPathComponent("out.png").path : $0 }
        let run = try Meridian.run(args, directory: directory)
        #expect(run.status != 0, sourceLocation: sourceLocation)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(text), "\(run.stderr) lacks \(text)", sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, sourceLocation: sourceLocation)
    }

    @Test func badGridArguments() throws {
        let area = ["--bbox", "-10,40,10,50", "--size", "400x300", "-o", "OUT"]
        try expectRejected(
            ["grid", "--type", "osgb"] + area,
            mentions: "meridian grid: --type osgb: expected latlong, utm, mgrs or usng")
        try expectRejected(["grid", "--type", "utm", "--size", "10x10", "-o", "OUT"], mentions: "--bbox is required")
        try expectRejected(
            ["grid", "--type", "utm", "--bbox", "-10,40,10,50", "-o", "OUT"], mentions: "give --size WxH or --zoom Z")
        try expectRejected(["grid", "--type", "utm", "--zoom", "3"] + area, mentions: "either --size or --zoom")
        try expectRejected(
            ["grid", "--type", "utm", "--levels", "1,x"] + area, mentions: "--levels expects level numbers")
        try expectRejected(
            ["grid", "--type", "utm", "--levels", "5"] + area, mentions: "utm has no level 5 (its levels are 0 to 4)")
        try expectRejected(
            ["grid", "--type", "mgrs", "--levels", "5"] + area, mentions: "mgrs level 5 (10 m) would draw lines")
        try expectRejected(
            ["grid", "--type", "mgrs", "--bbox", "-10,40,10,50", "--zoom", "30", "-o", "OUT"],
            mentions: "--zoom expects a whole number from 0 to 24")
        try expectRejected(
            ["grid", "--type", "mgrs", "--grid-labels", "center"] + area, mentions: "unknown option --grid-labels")
    }

    /// Requests that would make tens of millions of vertices are refused before any work,
    /// within a bounded address space (1 GB: a run that tried would be killed, not refused).
    @Test(.timeLimit(.minutes(1))) func hugeRequestsAreRefusedUpFront() throws {
        for arguments in [
            ["--type", "mgrs", "--bbox", "-180,-80,180,84", "--zoom", "24"],
            ["--type", "mgrs", "--bbox", "0,0,1,1", "--zoom", "20", "--levels", "0,1,2,3,4,5"],
            ["--type", "latlong", "--bbox", "-180,-85,180,85", "--zoom", "22"],
        ] {
            let directory = try TemporaryFolder.create()
            defer { TemporaryFolder.remove(directory) }
            let output = directory.appendingPathComponent("grid.geojson").path
            let command = ([Meridian.binary.path, "grid"] + arguments + ["-o", output]).joined(separator: " ")
            let run = try Tool.run("bash", ["-c", "ulimit -v 1000000; exec \(command)"])
            #expect(run.status == 1, "\(arguments): \(run)")
            #expect(run.stderr.contains("10,000,000 vertices"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    static let world = Repository.fixture("maps/world.json")
    static let gridWorld = Repository.fixture("maps/grid-world.json")

    func render(_ map: String, _ extra: [String], bbox: String = "-80,35,-70,45") throws -> Image {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let output = directory.appendingPathComponent("out.png").path
        let run = try Meridian.run(["render", map, "--bbox", bbox, "--size", "400x300", "-o", output] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return try PNG.decode(contentsOf: output)
    }

    /// `--grid TYPE` turns a grid on without editing the document; `--grid none` turns a
    /// document's grid off; `--grid-labels` moves or hides its labels.
    @Test func renderFlags() throws {
        let plain = try render(Self.world, [])
        let mgrs = try render(Self.world, ["--grid", "mgrs"])
        #expect(mgrs != plain)
        #expect(try render(Self.gridWorld, []) == mgrs)
        #expect(try render(Self.gridWorld, ["--grid", "none"]) == plain)
        let utm = try render(Self.gridWorld, ["--grid", "utm"])
        #expect(utm != mgrs && utm != plain)
        #expect(try render(Self.world, ["--grid", "utm"]) == utm)
        // UTM labels its 100 km lines, which show at about 1.4 km a pixel.
        let box = "-76,38,-73,41"
        let geographic = try render(Self.world, ["--grid", "utm"], bbox: box)
        let unlabelled = try render(Self.world, ["--grid", "utm", "--grid-labels", "none"], bbox: box)
        let edges = try render(Self.world, ["--grid", "utm", "--grid-labels", "bottomLeft"], bbox: box)
        #expect(unlabelled != geographic && edges != geographic && edges != unlabelled)
    }

    @Test func badRenderFlags() throws {
        let view = ["--bbox", "-80,35,-70,45", "--size", "30x20", "-o", "OUT"]
        try expectRejected(
            ["render", Self.world, "--grid", "osgb"] + view,
            mentions: "--grid osgb: expected latlong, utm, mgrs, usng or none")
        try expectRejected(
            ["render", Self.world, "--grid-labels", "bottomLeft"] + view, mentions: "--grid-labels needs a grid")
        try expectRejected(
            ["render", Self.world, "--grid", "utm", "--grid-labels", "left"] + view,
            mentions:
                "--grid-labels left: expected geographic, bottomLeft, bottomRight, topLeft, topRight, center, allSides or none"
        )
    }
}
