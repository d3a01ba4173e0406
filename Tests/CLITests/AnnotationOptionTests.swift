import Foundation
import TestSupport
import Testing

/// `--annotation` on `meridian grid` and `meridian sheet`: the GeoJSON's latitude and longitude
/// labels written as GeoConvert writes the same angles, the sheet's values as asked; without
/// it the output is unchanged; a bad annotation is one line naming the key.
@Suite struct AnnotationOptionTests {
    static let bbox = ["--bbox", "-74.05,40.68,-73.90,40.80", "--size", "800x600"]

    static func labels(_ features: [[String: Any]]) -> [String] {
        features.map { GridCommandTests.properties($0) }.filter { $0["kind"] as? String == "label" }
            .map { $0["text"] as! String }
    }

    /// Every meridian's and parallel's value (`-73.95`), as GeoConvert writes it to a tenth of
    /// a minute (`-d -p -2`: `073d57.0'W`) and the annotation pads it with a prefix: `W 073°57.0′`.
    @Test func gridLabelsFollowTheAnnotation() throws {
        let command = GridCommandTests()
        let plain = try command.geoJSON(["--type", "latlong"] + Self.bbox)
        let annotated = try command.geoJSON(
            [
                "--type", "latlong", "--annotation",
                #"{"format": "DM", "precision": 1, "padding": true, "hemisphere": "prefix"}"#,
            ]
                + Self.bbox)
        let lines = plain.map { GridCommandTests.properties($0) }.filter { $0["kind"] as? String == "line" }
        var expected = Set<String>()
        let values = lines.map { ($0["axis"] as! String, $0["value"] as! Double) }
        let input = values.map { $0.0 == "latitude" ? "\($0.1) 0" : "0 \($0.1)" }
        for ((axis, _), line) in zip(values, try GeoConvert.run(["-d", "-p", "-2"], input)) {
            let fields = line.split(separator: " ")
            let reference = GeoConvert.annotation(fromDMS: fields[axis == "latitude" ? 0 : 1])
            expected.insert(reference.letter + " " + reference.text)
        }
        let texts = Self.labels(annotated)
        #expect(!texts.isEmpty && texts.count == Self.labels(plain).count)
        for text in texts { #expect(expected.contains(text), "\(text) is no value GeoConvert writes: \(expected)") }
        // The same lines as without it: only the texts change.
        #expect(annotated.count == plain.count)
    }

    @Test func badAnnotationsAreOneLine() throws {
        try GridCommandTests().expectRejected(
            ["grid", "--type", "latlong"] + Self.bbox + ["--annotation", #"{"format": "DMX"}"#, "-o", "OUT"],
            mentions: "--annotation: format")
        try GridCommandTests().expectRejected(
            ["grid", "--type", "latlong"] + Self.bbox + ["--annotation", "missing.json", "-o", "OUT"],
            mentions: "--annotation missing.json")
        try GridCommandTests().expectRejected(
            [
                "sheet", Repository.fixture("maps/nyc.json"), "--center", "-73.97,40.76", "--scale", "25000",
                "--annotation", #"{"left": {"axis": "north"}}"#, "-o", "OUT",
            ], mentions: "--annotation: left.axis")
    }

    /// A latitude/longitude sheet with `--annotation`: its values and corners in D°M′S″ with
    /// the hemisphere first, as poppler reads the PDF; none in the old `40°46'N` form.
    @Test func sheetValuesFollowTheAnnotation() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("sheet.pdf").path
        let run = try Meridian.run([
            "sheet", Repository.fixture("maps/nyc.json"), "--center", "-73.97,40.76", "--scale", "25000",
            "--grid", "latlong", "--annotation", #"{"format": "DMS", "hemisphere": "prefix"}"#, "-o", pdf,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // The subtitle (`Centred on 40°45'36"N ...`) is no grid value.
        let text = try Tool.output("pdftotext", [pdf, "-"]).split(separator: "\n").filter { !$0.contains("Centred") }
            .joined(separator: "\n")
        let north = text.components(separatedBy: "N 40°").count - 1
        let west = text.components(separatedBy: "W 73°").count - 1
        #expect(north >= 6 && west >= 6, "\(north) latitudes, \(west) longitudes: \(text)")
        #expect(text.range(of: #"\d['"][NSEW]"#, options: .regularExpression) == nil, "\(text)")
    }
}
