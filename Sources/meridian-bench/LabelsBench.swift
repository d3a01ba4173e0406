import Foundation
import Geodesy
import MapModel
import Render

/// `meridian-bench labels`: label placement over growing point sets. For 4,000 to 256,000
/// named points scattered over the land-sized middle of the world (deterministic: a fixed
/// pseudo-random sequence), renders every tile of zooms 0 to 3 as 4x4 blocks with one
/// renderer (as a tile worker does) and prints labels placed per second of CPU: points times
/// zooms over the time taken. With near-linear placement the rate stays about flat as the set
/// grows; a quadratic one falls by 4 at each step.
enum LabelsBench {
    static func run() {
        print("== labels: points labelled at zooms 0-3 as 4x4 tile blocks (CPU time of this thread)")
        let sizes = GridBench.quick ? [4000, 16000] : [4000, 16000, 64000, 256_000]
        let fonts = URL(fileURLWithPath: GridBench.worldPath).deletingLastPathComponent()
            .appendingPathComponent("../fonts").standardized.path
        print("points    seconds   labels/s")
        for n in sizes {
            do {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "meridian-bench-labels-\(getpid())-\(n)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                try points(n).write(
                    to: folder.appendingPathComponent("points.geojson"), atomically: true, encoding: .utf8)
                let map = """
                    {"background": "white", "fonts": ["\(fonts)"], "systemFonts": false, "layers": [
                     {"name": "places", "source": "points.geojson",
                      "label": {"attribute": "name", "size": 10, "halo": {"width": 1}, "priority": 0}}]}
                    """
                let path = folder.appendingPathComponent("map.json").path
                try map.write(toFile: path, atomically: true, encoding: .utf8)
                let renderer = try MapRenderer(map: try LoadedMap.load(path: path))
                let start = GridBench.cpuMilliseconds()
                for z in 0...3 {
                    let count = min(4, 1 << z)
                    for y in stride(from: 0, to: 1 << z, by: 4) {
                        for x in stride(from: 0, to: 1 << z, by: 4) {
                            let view = try View.tiles(z: z, x: x, y: y, columns: count, rows: count)
                            _ = try renderer.renderImage(view: view, margin: 64, tileSize: 256)
                        }
                    }
                }
                let seconds = (GridBench.cpuMilliseconds() - start) / 1000
                print(String(format: "%7d  %8.2f  %9.0f", n, seconds, Double(4 * n) / seconds))
            } catch {
                print("labels: \(error)")
            }
        }
    }

    /// `count` points named "P1", "P2"... in 60°S-70°N, from SplitMix64.
    static func points(_ count: Int) -> String {
        var state: UInt64 = 0x5EED
        func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var features: [String] = []
        features.reserveCapacity(count)
        for i in 1...count {
            let lon = unit() * 360 - 180
            let lat = unit() * 130 - 60
            features.append(
                #"{"type":"Feature","properties":{"name":"P\#(i)"},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
            )
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }
}
