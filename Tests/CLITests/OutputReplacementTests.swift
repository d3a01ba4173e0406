import Foundation
import Raster
import TestSupport
import Testing

/// Every command that writes a file, run twice into the same path: the second run replaces
/// the first run's output (PDF and SVG once failed with "a file with the same name already
/// exists"), the folder holds exactly that output and no temporary file, and the bytes are
/// the same both times.
@Suite struct OutputReplacementTests {
    let world = Repository.fixture("maps/world.json")
    let nyc = Repository.fixture("maps/nyc.json")

    /// Runs `arguments` (with `OUT` standing for `directory/name`) twice in `directory` and
    /// checks what is left after each run: the entries there before, plus `name`.
    func expectReplaced(
        _ arguments: [String], name: String, in directory: URL, statuses: Set<Int32> = [0],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let output = directory.appendingPathComponent(name).path
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != name }
        let expected = (before + [name]).sorted()
        var contents: [[String: [UInt8]]] = []
        for attempt in 1...2 {
            let run = try Meridian.run(arguments.map { $0 == "OUT" ? output : $0 }, directory: directory)
            #expect(
                statuses.contains(run.status), "run \(attempt) of \(arguments[0]): \(run.stderr)",
                sourceLocation: sourceLocation)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == expected,
                "after run \(attempt) of \(arguments[0])", sourceLocation: sourceLocation)
            contents.append(try Self.contents(of: output))
        }
        #expect(!contents[0].isEmpty, "\(name) is empty", sourceLocation: sourceLocation)
        #expect(contents[0] == contents[1], "\(name) differs between the runs", sourceLocation: sourceLocation)
        let entries = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []
        let hidden = entries.filter {
            $0.split(separator: "/").contains { $0.hasPrefix(".") } || $0.hasSuffix(".tmp")
        }
        #expect(hidden.isEmpty, "left behind: \(hidden)", sourceLocation: sourceLocation)
    }

    @Test func renderSheetAndGrid() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let view = ["--center", "10,50", "--scale", "20000000", "--size", "120x90"]
        let sheet = ["--center", "-73.97,40.76", "--scale", "25000", "--paper", "150x150mm", "--dpi", "72"]
        for ext in ["png", "pdf", "svg"] {
            try expectReplaced(["render", world] + view + ["-o", "OUT"], name: "map.\(ext)", in: directory)
            try expectReplaced(["sheet", nyc] + sheet + ["-o", "OUT"], name: "sheet.\(ext)", in: directory)
        }
        try expectReplaced(
            ["grid", "--type", "mgrs", "--bbox", "-10,40,10,50", "--zoom", "4", "-o", "OUT"], name: "grid.geojson",
            in: directory)
    }

    @Test func tilesMergeAndSummaries() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let job = ["tiles", world, "--zoom", "0-1", "--workers", "1", "--quiet"]
        try expectReplaced(job + ["-o", "OUT"], name: "pyramid", in: directory)
        try expectReplaced(job + ["-o", "OUT"], name: "a.mbtiles", in: directory)
        try expectReplaced(job + ["--shard", "0/2", "-o", "OUT"], name: "b.mbtiles", in: directory)
        try expectReplaced(
            ["merge", "a.mbtiles", "b.mbtiles", "--quiet", "-o", "OUT"], name: "all.mbtiles", in: directory)
        // The summary's timings differ from run to run: its keys are compared instead of its bytes.
        let summary = directory.appendingPathComponent("summary.json").path
        for _ in 1...2 {
            let run = try Meridian.run(job + ["-o", "c.mbtiles", "--summary-json", summary], directory: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary)))
            #expect((json as? [String: Any])?["tiles"] as? Int == 5)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "a.mbtiles", "all.mbtiles", "b.mbtiles", "c.mbtiles", "pyramid", "summary.json",
            ])
    }

    @Test func diffImage() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        var changed = Image(width: 8, height: 8, fill: .white)
        changed[3, 3] = RGBA(200, 0, 0)
        try PNG.write(Image(width: 8, height: 8, fill: .white), toPath: directory.path + "/a.png")
        try PNG.write(changed, toPath: directory.path + "/b.png")
        // Exit status 1: the images differ, and the diff image is written.
        try expectReplaced(
            ["diff", "a.png", "b.png", "--diff-image", "OUT"], name: "d.png", in: directory, statuses: [1])
    }

    /// The bytes of a file, or of every file under a folder, by relative path.
    static func contents(of path: String) throws -> [String: [UInt8]] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [:] }
        guard isDirectory.boolValue else { return ["": try FileIO.readBytes(atPath: path)] }
        var result: [String: [UInt8]] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: path)?.allObjects ?? [] {
            let full = path + "/" + relative
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try FileIO.readBytes(atPath: full)
            }
        }
        return result
    }
}
