import Foundation
import TestSupport
import Testing

/// `meridian render` on bad input: one line on stderr naming the file, the place and the
/// problem; a non-zero exit; and no output file left behind.
@Suite struct RenderCommandTests {
    let world = Repository.fixture("maps/world.json")

    func expectRejected(
        _ arguments: [String], mentions expected: [String], files: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        for (name, content) in files {
            try content.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let output = directory.appendingPathComponent("out.png").path
        let args = arguments.map { $0 == "OUT" ? output : $0 }
        let run = try Meridian.run(args, directory: directory)
        #expect(run.status != 0, "exit status 0 for \(arguments)", sourceLocation: sourceLocation)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(run.stderr)", sourceLocation: sourceLocation)
        for text in expected {
            #expect(run.stderr.contains(text), "stderr \(run.stderr) lacks \(text)", sourceLocation: sourceLocation)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !files.keys.contains($0)
        }
        #expect(left.isEmpty, "left behind: \(left)", sourceLocation: sourceLocation)
    }

    let view = ["--bbox", "-10,40,10,60", "--size", "64x64", "-o", "OUT"]

    func map(_ layers: String, extra: String = "") -> String {
        #"{"layers": \#(layers)\#(extra)}"#
    }

    let point =
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Point", "coordinates": [0, 50]}}]}"#

    @Test func malformedJSON() throws {
        try expectRejected(
            ["render", "m.json"] + view, mentions: ["m.json", "line 1, column 13", "malformed JSON"],
            files: ["m.json": #"{"layers": [}"#])
    }

    @Test func unknownKey() throws {
        try expectRejected(
            ["render", "m.json"] + view, mentions: ["m.json", "layers[0].colour", "unknown key"],
            files: [
                "m.json": map(#"[{"name": "a", "source": "d.geojson", "colour": "red", "line": {}}]"#),
                "d.geojson": point,
            ])
    }

    @Test func wrongType() throws {
        try expectRejected(
            ["render", "m.json"] + view, mentions: ["m.json", "layers[0].visible", "expected true or false"],
            files: [
                "m.json": map(#"[{"name": "a", "source": "d.geojson", "visible": "yes", "line": {}}]"#),
                "d.geojson": point,
            ])
    }

    @Test func badColour() throws {
        try expectRejected(
            ["render", "m.json"] + view, mentions: ["m.json", "layers[0].marker.fill", "\"#12345\" is not a colour"],
            files: [
                "m.json": map(##"[{"name": "a", "source": "d.geojson", "marker": {"fill": "#12345"}}]"##),
                "d.geojson": point,
            ])
    }

    @Test func missingSource() throws {
        try expectRejected(
            ["render", "m.json"] + view, mentions: ["m.json", "layers[0].source", "no such file"],
            files: ["m.json": map(#"[{"name": "a", "source": "nowhere.geojson", "line": {}}]"#)])
    }

    @Test func notGeoJSON() throws {
        try expectRejected(
            ["render", "m.json"] + view, mentions: ["d.geojson", "not GeoJSON"],
            files: [
                "m.json": map(#"[{"name": "a", "source": "d.geojson", "line": {}}]"#),
                "d.geojson": #"{"type": "Topology"}"#,
            ])
    }

    @Test func outOfRangeCoordinate() throws {
        let bad =
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 50]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [200, 50]}}]}"#
        try expectRejected(
            ["render", "m.json"] + view,
            mentions: ["d.geojson", "features[1].geometry.coordinates", "longitude 200 is out of range"],
            files: ["m.json": map(#"[{"name": "a", "source": "d.geojson", "marker": {}}]"#), "d.geojson": bad])
    }

    @Test func badSizes() throws {
        try expectRejected(
            ["render", world, "--bbox", "-10,40,10,60", "--size", "0x64", "-o", "OUT"], mentions: ["--size"])
        try expectRejected(
            ["render", world, "--bbox", "-10,40,10,60", "--size", "100000x100000", "-o", "OUT"], mentions: ["too large"]
        )
        try expectRejected(
            ["render", world, "--bbox", "10,40,-10,60", "--size", "64x64", "-o", "OUT"], mentions: ["bbox", "empty"])
        try expectRejected(
            ["render", world, "--bbox", "nan,40,10,60", "--size", "64x64", "-o", "OUT"], mentions: ["--bbox"])
        try expectRejected(
            ["render", world, "--center", "0,50", "--size", "64x64", "-o", "OUT"], mentions: ["--scale"])
        try expectRejected(
            ["render", world, "--bbox", "-10,40,10,60", "--size", "64x64", "--frobnicate", "-o", "OUT"],
            mentions: ["unknown option --frobnicate"])
    }

    @Test func unwritableOutput() throws {
        let run = try Meridian.run([
            "render", world, "--bbox", "-10,40,10,60", "--size", "64x64", "-o", "/nonexistent-folder/out.png",
        ])
        #expect(run.status != 0)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("/nonexistent-folder") && run.stderr.contains("does not exist"))
        let format = try Meridian.run([
            "render", world, "--bbox", "-10,40,10,60", "--size", "64x64", "-o", "/tmp/out.jpeg",
        ])
        #expect(format.status != 0 && format.stderr.contains("unknown output format"))
    }

    @Test func writesPNGPDFAndSVG() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        for (ext, magic) in [
            ("png", [UInt8]([0x89, 0x50, 0x4E, 0x47])), ("pdf", Array("%PDF".utf8)), ("svg", Array("<?xm".utf8)),
        ] {
            let path = directory.appendingPathComponent("world.\(ext)").path
            let run = try Meridian.run([
                "render", world, "--center", "10,50", "--scale", "20000000", "--size", "200x150", "-o", path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(Array(bytes.prefix(4)) == magic)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "world.pdf", "world.png", "world.svg",
            ])
    }
}
