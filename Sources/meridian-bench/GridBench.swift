import Foundation
import Grids
import MapModel
import Raster
import Render

/// `meridian-bench grid`: what a grid adds to a render. Renders 1024x1024 views of
/// Fixtures/maps/world.json over central Europe at zooms 10 to 14, with and without an MGRS
/// grid, as a block of 4x4 tiles and as a single image (whose labels are placed differently),
/// and prints the overhead: on the render alone, with the lines only, and on the render plus
/// PNG encoding (what `meridian render` and a tile job pay). Then the time to generate each
/// grid type's geometry alone. Times are CPU times of this thread (the cores are shared),
/// medians of several runs.
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
            let plain = try MapRenderer(map: try LoadedMap(document: document))
            let withGrid = try MapRenderer(map: try LoadedMap(document: gridded))
            let linesOnly = try MapRenderer(map: try LoadedMap(document: unlabelled))
            let runs = quick ? 3 : 15
            let (lon, lat) = (11.0, 48.0)
            print("zoom  view          render  +grid  overhead  lines only   render+png  +grid  overhead")
            for z in 10...14 {
                let n = Double(1 << z)
                let x = Int((lon + 180) / 360 * n) - 2
                let y = Int((1 - log(tan(lat * .pi / 180) + 1 / cos(lat * .pi / 180)) / .pi) / 2 * n) - 2
                let tiles = try View.tiles(z: z, x: x, y: y, columns: 4, rows: 4)
                var single = try View(resolution: tiles.resolution, originX: tiles.originX + 0.5, originY: tiles.originY + 0.5,
                                      width: 1024, height: 1024)
                single.isTileBlock = false
                for (name, view) in [("4x4 tiles", tiles), ("single image", single)] {
                    // Tiles are drawn as the tile job draws them: tile by tile, with a buffer.
                    let tileSize: Int? = view.isTileBlock ? 256 : nil
                    let margin = view.isTileBlock ? 64.0 : 0
                    func render(_ renderer: MapRenderer) throws -> Image {
                        try renderer.renderImage(view: view, margin: margin, tileSize: tileSize)
                    }
                    // Warm up: fonts, label sprites.
                    for renderer in [plain, withGrid, linesOnly] { _ = try render(renderer) }
                    let a = try median(runs) { _ = try render(plain) }
                    let b = try median(runs) { _ = try render(withGrid) }
                    let c = try median(runs) { _ = try render(linesOnly) }
                    let d = try median(runs) { _ = try PNG.encode(try render(plain)) }
                    let e = try median(runs) { _ = try PNG.encode(try render(withGrid)) }
                    print(String(format: "%4d  ", z) + name.padding(toLength: 13, withPad: " ", startingAt: 0) + String(format: " %6.2f %6.2f  ", a, b) + percent(b, a)
                          + "   " + percent(c, a) + String(format: "      %6.2f %6.2f  ", d, e) + percent(e, d))
                }
            }
            print("\ngeometry alone (Grid.generate, 1024x1024 at 48°N, labels included), CPU ms")
            print("zoom  " + GridType.allCases.map { $0.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined())
            for z in [2, 6, 10, 11, 12, 13, 14, 16] {
                let resolution = 2 * Double.pi * 6_378_137 / (256 * Double(1 << z))
                let projection = WebMercatorGridProjection(resolution: resolution)
                let c = projection.project(latitude: lat, longitude: lon)
                let area = GridRect(minX: c.x - 512, minY: c.y - 512, maxX: c.x + 512, maxY: c.y + 512)
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
