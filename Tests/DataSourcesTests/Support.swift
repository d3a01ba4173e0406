import DataSources
import Foundation
import ImageDiff
import MapModel
import Raster
import Render
import Testing

/// Shared helpers: a scratch folder per test, external tools run with their exit status
/// checked, and maps written and rendered the way the command line does.
enum Support {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fonts = root.appendingPathComponent("Fixtures/fonts").path
    static let boroughs = root.appendingPathComponent("Fixtures/data/nybb.geojson").path

    /// The view of Fixtures/golden/nyc.png: the five boroughs in 640 x 520 pixels.
    static func nycView() throws -> View {
        try View.fitting(west: -74.26, south: 40.49, east: -73.69, north: 40.92, width: 640, height: 520)
    }

    /// The golden images' comparator and allowance (GoldenRenderTests).
    static let comparator = ImageComparator(threshold: 0.015)
    static let allowedFraction = 0.0005

    /// Runs a tool and returns its standard output; a non-zero exit is an error carrying its
    /// standard error. posix_spawn and waitpid rather than Foundation's Process, whose wait also
    /// waits for descendants that outlive the tool (the database server postgis.sh leaves
    /// running).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ds-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out").path
        let err = scratch.appendingPathComponent("err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, tool, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ToolFailure(description: "\(tool): cannot start it (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (the WIFEXITED/WEXITSTATUS macros, which Swift lacks).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            throw ToolFailure(
                description: "\(tool) \(arguments.joined(separator: " ")) failed (status \(status)): \(stderr)")
        }
        return stdout
    }

    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh folder, removed by `body`'s end whatever happens.
    static func withScratch<T>(_ body: (URL) throws -> T) throws -> T {
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent("ds-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    /// The layers of Fixtures/maps/nyc.json, each with `source` (JSON text) and `extra` keys.
    static func nycLayers(source: String, extra: String = "") -> [String] {
        [
            ##"{"name": "boroughs", "source": \##(source)\##(extra), "fill": {"color": "#f4efe1", "outline": {"color": "#8a7a5a", "width": 1}}}"##,
            ##"{"name": "manhattan", "source": \##(source)\##(extra), "filter": {"property": "BoroName", "==": "Manhattan"}, "fill": {"color": "#f6d6a8", "outline": {"color": "#b5651d", "width": 1.5, "dash": [4, 2]}}}"##,
            ##"{"name": "borough names", "source": \##(source)\##(extra), "label": {"text": "{BoroName} ({BoroCode})", "size": 12, "bold": true, "color": "#4a3b2a", "halo": {"color": "#ffffffcc", "width": 2}, "priority": 1}}"##,
        ]
    }

    /// Writes a map document with these layers into `folder` and returns its path.
    static func writeMap(in folder: URL, layers: [String], name: String = "map.json") throws -> String {
        let text = #"""
            {"background": "#cfe3ee", "fonts": ["\#(fonts)"], "systemFonts": false,
             "layers": [\#(layers.joined(separator: ",\n"))]}
            """#
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func load(_ mapPath: String) throws -> LoadedMap {
        try LoadedMap.load(path: mapPath, opener: DataSourceOpener())
    }

    static func render(_ mapPath: String, view: View? = nil) throws -> Image {
        try MapRenderer(map: try load(mapPath)).renderImage(view: try view ?? nycView())
    }

    /// The New York map from the GeoJSON fixture: what every other format must match.
    static func geoJSONRender() throws -> Image {
        try withScratch { folder in
            try render(try writeMap(in: folder, layers: nycLayers(source: "\"\(boroughs)\"")))
        }
    }

    /// The error loading `mapPath` throws, as the command line prints it.
    static func loadError(_ mapPath: String) -> String? {
        do {
            _ = try load(mapPath)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
