import Foundation
import TestSupport
import Testing

/// Issue 11's style repros: what used to spin, warn through the libraries or say too little
/// now ends at once with our own words. Runs that used to hang go through `timeout 30`, so a
/// regression fails (exit 124) instead of hanging the suite.
@Suite struct StyleInputTests {
    /// Runs meridian under a 30 s guard in `directory`.
    func run(_ arguments: [String], in directory: URL) throws -> ToolRun {
        try Tool.run("/usr/bin/timeout", ["30", Meridian.binary.path] + arguments, directory: directory)
    }

    /// A folder holding `files`, given to `body`, removed afterwards.
    func withFolder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        for (name, content) in files {
            try content.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try body(directory)
    }

    /// The world map with `replace` applied to its text and its paths made absolute.
    func world(_ replace: (String) -> String = { $0 }) throws -> String {
        let text = try String(contentsOfFile: Repository.fixture("maps/world.json"), encoding: .utf8)
        return replace(text.replacingOccurrences(of: "\"../", with: "\"\(Repository.root)/Fixtures/"))
    }

    @Test func hugeReferenceScaleEndsAtOnce() throws {
        let map = try world {
            $0.replacingOccurrences(of: "\"referenceScale\": 35000000", with: "\"referenceScale\": 1e300")
        }
        try withFolder(["m.json": map]) { folder in
            let run = try run(
                ["render", "m.json", "--bbox", "-10,40,10,60", "--size", "256x256", "-o", "o.png"], in: folder)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        }
    }

    /// At 1:5000 the world map's symbols would be 7,000 times their size: Pango warned "expect
    /// ugly output" and FreeType failed. Sizes stop at maxSize now, and nothing is printed.
    @Test func largeScalesPrintNoLibraryWarnings() throws {
        try withFolder([:]) { folder in
            let world = Repository.fixture("maps/world.json")
            let render = try run(
                ["render", world, "--center", "12.5,41.9", "--scale", "5000", "--size", "400x300", "-o", "o.png"],
                in: folder)
            #expect(render.status == 0 && render.stderr.isEmpty, "\(render)")
            let sheet = try run(["sheet", world, "--center", "0,0", "--scale", "1", "-o", "s.pdf"], in: folder)
            #expect(sheet.status == 0 && sheet.stderr.isEmpty, "\(sheet)")
        }
    }

    /// Dashes of 0.001 pt made millions of dashes (2.6 GB): each is at least 0.1 px now.
    @Test func tinyDashesAreBounded() throws {
        let map = try world {
            $0.replacingOccurrences(
                of: #""layers": ["#,
                with:
                    #""grid": {"type": "latlong", "levels": {"0": {"line": {"dash": [0.001]}}, "1": {"line": {"dash": [0.001]}}, "2": {"line": {"dash": [0.001]}}, "3": {"line": {"dash": [0.001]}}}}, "layers": ["#
            ).replacingOccurrences(of: #""width": 0.8 }"#, with: #""width": 0.8, "dash": [0.001] }"#)
        }
        #expect(map.components(separatedBy: "0.001").count == 6)
        try withFolder(["m.json": map]) { folder in
            let run = try run(
                ["render", "m.json", "--bbox", "-30,20,30,60", "--size", "1024x1024", "-o", "o.png"], in: folder)
            #expect(run.status == 0, "\(run)")
        }
    }

    @Test func misspeltAttributesAndFontsAreWarnedAbout() throws {
        let map = try world {
            $0.replacingOccurrences(of: #""attribute": "name""#, with: #""attribute": "nmae""#)
                .replacingOccurrences(of: #""font": "DejaVu Sans""#, with: #""font": "DejaVu Snas""#)
        }
        try withFolder(["m.json": map]) { folder in
            let run = try run(
                ["render", "m.json", "--bbox", "-10,40,10,60", "--size", "64x64", "-o", "o.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(run.stderr)")
            #expect(
                lines.contains(
                    "meridian render: warning: m.json: layers[1]: no feature of cities.geojson has the attribute \"nmae\" (did you mean \"name\"?)"
                ), "\(lines)")
            #expect(
                lines.contains {
                    $0.hasPrefix("meridian render: warning: m.json: layers[1]: no font of the family \"DejaVu Snas\"")
                },
                "\(lines)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("o.png").path))
        }
    }

    @Test func schemaKeyEmptySourceAndBrokenFont() throws {
        let layer = #"{"name": "a", "source": "p.geojson", "marker": {}}"#
        let point = #"{"type": "Point", "coordinates": [0, 50]}"#
        try withFolder([
            "schema.json": #"{"$schema": "https://meridian.invalid/schema/map.schema.json", "layers": [\#(layer)]}"#,
            "empty.json": #"{"layers": [{"name": "a", "source": "", "marker": {}}]}"#,
            "font.json": #"{"fonts": ["broken.ttf"], "layers": [\#(layer)]}"#,
            "broken.ttf": "not a font", "p.geojson": point,
        ]) { folder in
            let view = ["--bbox", "-10,40,10,60", "--size", "64x64", "-o", "o.png"]
            let schema = try run(["render", "schema.json"] + view, in: folder)
            #expect(schema.status == 0 && schema.stderr.isEmpty, "\(schema)")
            let empty = try run(["render", "empty.json"] + view, in: folder)
            #expect(
                empty.status == 1
                    && empty.stderr
                        == "meridian render: empty.json: layers[0].source: the source is empty: give the path of a data file or a connection string\n",
                "\(empty)")
            let font = try run(["render", "font.json"] + view, in: folder)
            #expect(font.status == 1 && font.stderr.hasPrefix("meridian render: font.json: fonts[0]: "), "\(font)")
            #expect(font.stderr.contains("broken.ttf is not a font file"), "\(font)")
        }
    }
}
