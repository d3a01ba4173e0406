import Foundation
import MapModel

/// `meridian-bench json`: the streaming GeoJSON reader against Foundation's JSONSerialization
/// on one 50 MB file (lines with a few attributes, made from a fixed seed). Prints MB/s of:
/// JSONSerialization building its tree (what the reader replaced), JSONStream skipping every
/// value (the tokenizer alone), and the whole GeoJSON reader into a FeatureTable. Wall-clock
/// time of this thread: run it in release.
enum JSONBench {
    static func run() {
        print("== json: a 50 MB GeoJSON file of lines (MB/s, best of 3)")
        do {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "meridian-bench-json-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("lines.geojson").path
            let text = lines(bytes: 50 << 20)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let megabytes = Double(text.utf8.count) / Double(1 << 20)
            let foundation = try best {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                _ = try JSONSerialization.jsonObject(with: data)
            }
            let tokens = try best {
                let stream = try JSONStream(path: path, file: path)
                try stream.skipValue()
                try stream.finish()
            }
            let reader = try best { _ = try FeatureStore.load(path: path) }
            for (name, seconds) in [
                ("JSONSerialization (tree)", foundation), ("JSONStream (skip every value)", tokens),
                ("GeoJSON reader (FeatureTable)", reader),
            ] {
                print(String(format: "  %-32@ %7.1f MB/s  %6.2f s", name as NSString, megabytes / seconds, seconds))
            }
        } catch {
            print("json: \(error)")
        }
    }

    /// The fastest of three runs, in seconds.
    private static func best(_ body: () throws -> Void) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<3 {
            let start = Date()
            try body()
            fastest = min(fastest, Date().timeIntervalSince(start))
        }
        return fastest
    }

    /// A FeatureCollection of LineStrings of 2 to 40 vertices, about `bytes` long.
    private static func lines(bytes: Int) -> String {
        var state: UInt64 = 13
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var out = #"{"type":"FeatureCollection","features":["#
        out.reserveCapacity(bytes + 4096)
        var first = true
        var id = 0
        while out.utf8.count < bytes {
            let count = 2 + Int(next() * 39)
            var x = next() * 360 - 180
            var y = next() * 160 - 80
            var coordinates: [String] = []
            for _ in 0..<count {
                x = min(180, max(-180, x + next() * 0.02 - 0.01))
                y = min(85, max(-85, y + next() * 0.02 - 0.01))
                coordinates.append(String(format: "[%.6f,%.6f]", x, y))
            }
            out +=
                (first ? "" : ",") + #"{"type":"Feature","properties":{"id":\#(id),"kind":"#
                + (next() < 0.5 ? #""primary""# : #""secondary""#)
                + #","name":"Road \#(id)"},"geometry":{"type":"LineString","coordinates":["#
                + coordinates.joined(separator: ",") + "]}}"
            first = false
            id += 1
        }
        return out + "]}"
    }
}
