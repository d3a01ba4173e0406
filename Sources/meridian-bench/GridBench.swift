import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import Render

/// `meridian-bench grid`: what a grid adds to a render. Renders 1024x1024 views of
/// Fixtures/maps/world.json over central Europe at zooms 10 to 14, with and without an MGRS
/// grid, as blocks of 4x4 tiles and as single images (whose labels are placed differently),
/// and prints the overhead: on the render alone, with the lines only, and on the render plus
/// PNG encoding (what `meridian render` and a tile job pay). Then the time to generate each
/// grid type's geometry alone. Times are CPU times of this thread (the cores are shared),
/// medians of several runs.
///
/// Tiles are measured as a tile job meets them: each run draws a 3x3 patch of neighbouring
/// blocks, in rows, each block once, with one renderer kept from run to run (as a worker
/// keeps its caches), and every run draws a patch further east, so no block is ever drawn
/// twice. A single image is drawn again and again: it reuses nothing between renders.
enum GridBench {
    static let worldPath: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/maps/world.json").path
    }()

    static let quick = ProcessInfo.processInfo.environment["MERIDIAN_BENCH_QUICK"] == "1"

    static func cpuMilliseconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
    }

    /// The median of `runs` CPU timings of `body`, in milliseconds.
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = cpuMilliseconds()
            try body()
            times.append(cpuMilliseconds() - start)
        }
        return times.sorted()[times.count / 2]
    }

    static func percent(_ with: Double, _ without: Double) -> String {
        String(format: "%+6.0f%%", (with / without - 1) * 100)
    }

    static func run() {
        print("== grid: an MGRS grid over a 1024x1024 render of world.json (CPU ms, medians)")
        do {
            let document = try MapDocument.load(path: worldPath)
            var gridded = document
            gridded.grid = GridSettings(type: .mgrs)
            var unlabelled = gridded
            unlabelled.grid?.labelsVisible = false
            /// A fresh renderer for each measurement, so that none starts with another's caches.
            func renderer(_ document: MapDocument) throws -> MapRenderer {
                try MapRenderer(map: try LoadedMap(document: document))
            }
            let runs = quick ? 3 : 15
            let (lon, lat) = (11.0, 48.0)
            print("zoom  view          render  +grid  overhead  lines only   render+png  +grid  overhead")
            for z in 10...14 {
                let n = Double(1 << z)
                let x = Int((lon + 180) / 360 * n) - 2
                let y = Int((1 - log(tan(lat * .pi / 180) + 1 / cos(lat * .pi / 180)) / .pi) / 2 * n) - 2
                let tiles = try View.tiles(z: z, x: x, y: y, columns: 4, rows: 4)
                var single = try View(
                    resolution: tiles.resolution, originX: tiles.originX + 0.5, originY: tiles.originY + 0.5,
                    width: 1024, height: 1024)
                single.isTileBlock = false
                /// The views of run `i`: a 3x3 patch of blocks for tiles (east and south of the
                /// block drawn to warm up), the one view otherwise.
                func views(_ i: Int, tiled: Bool) throws -> [View] {
                    guard tiled else { return [single] }
                    let px = x + 12 * (i % 5 + 1)
                    let py = y + 12 * (i / 5)
                    var out: [View] = []
                    for row in 0..<3 {
                        for column in 0..<3 {
                            out.append(try View.tiles(z: z, x: px + 4 * column, y: py + 4 * row, columns: 4, rows: 4))
                        }
                    }
                    return out
                }
                for (name, tiled) in [("4x4 tiles", true), ("single image", false)] {
                    /// Milliseconds per view, the median over runs, each run in its own patch.
                    func time(_ document: MapDocument, png: Bool) throws -> Double {
                        let r = try renderer(document)
                        // Warm up: fonts, label sprites.
                        _ = try r.renderImage(
                            view: tiled ? tiles : single, margin: tiled ? 64 : 0, tileSize: tiled ? 256 : nil)
                        var times: [Double] = []
                        for run in 0..<runs {
                            let list = try views(run, tiled: tiled)
                            let start = cpuMilliseconds()
                            for view in list {
                                let image = try r.renderImage(
                                    view: view, margin: tiled ? 64 : 0, tileSize: tiled ? 256 : nil)
                                if png { _ = try PNG.encode(image) }
                            }
                            times.append((cpuMilliseconds() - start) / Double(list.count))
                        }
                        return times.sorted()[times.count / 2]
                    }
                    let a = try time(document, png: false)
                    let b = try time(gridded, png: false)
                    let c = try time(unlabelled, png: false)
                    let d = try time(document, png: true)
                    let e = try time(gridded, png: true)
                    print(
                        String(format: "%4d  ", z) + name.padding(toLength: 13, withPad: " ", startingAt: 0)
                            + String(format: " %6.2f %6.2f  ", a, b) + percent(b, a)
                            + "   " + percent(c, a) + String(format: "      %6.2f %6.2f  ", d, e) + percent(e, d))
                }
            }
            print("\ngeometry alone (Grid.generate, 1024x1024 at 48°N, labels included), CPU ms")
            print(
                "zoom  "
                    + GridType.allCases.map { $0.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined())
            for z in [2, 6, 10, 11, 12, 13, 14, 16] {
                let resolution = 2 * Double.pi * 6_378_137 / (256 * Double(1 << z))
                let projection = WebMercatorGridProjection(resolution: resolution)
                let c = projection.project(latitude: lat, longitude: lon)
                let area = Rect(minX: c.x - 512, minY: c.y - 512, maxX: c.x + 512, maxY: c.y + 512)
                var row = String(format: "%4d  ", z)
                for type in GridType.allCases {
                    var request = GridRequest(type: type)
                    request.minSpacing = GridSettings.defaultMinSpacing * View.standardDPI / 72
                    request.margin = 4
                    let ms = try median(runs) { _ = try Grid.generate(request, projection: projection, area: area) }
                    row += String(format: "%-9.2f", ms)
                }
                print(row)
            }
        } catch {
            print("grid benchmark failed: \(error)")
        }
    }
}
