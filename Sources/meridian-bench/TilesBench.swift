import Foundation
import MapModel
import Raster
import Tiles

/// `meridian-bench tiles`: where the time of a tile pyramid goes, per tile, on one worker:
/// drawing a metatile (Cairo, including the import into RGBA), cutting it, hashing each tile
/// (identical-tile detection), encoding each distinct tile (PNG through libpng), and storing
/// it (MBTiles insert). Then the whole pipeline on one and on all cores. The side-by-side
/// comparison with Mapnik is scripts/bench.sh.
enum TilesBench {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    static func run() {
        print("== tiles: the cost of each step, per 256 px tile (world-mapnik.json, 8x8 metatiles)")
        do {
            let map = try LoadedMap.load(path: root.appendingPathComponent("Fixtures/maps/world-mapnik.json").path)
            let renderer = try MapTileRenderer(map: map, format: TileFormat(), buffer: 128)
            // Zoom 5 and 6 metatiles over Europe and the Atlantic: land, coast, labels, ocean.
            let metatiles = [
                Metatile(z: 5, x: 16, y: 8, columns: 8, rows: 8), Metatile(z: 5, x: 8, y: 8, columns: 8, rows: 8),
                Metatile(z: 6, x: 32, y: 16, columns: 8, rows: 8), Metatile(z: 6, x: 24, y: 24, columns: 8, rows: 8),
            ]
            var render = 0.0
            var cut = 0.0
            var hash = 0.0
            var encode = 0.0
            var store = 0.0
            var tiles = 0
            var distinct = Set<ContentHash>()
            var bytes = 0
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-bench-\(getpid())")
                .path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let pyramid = try TilePyramid(zooms: ZoomRange(min: 5, max: 6))
            let sink = try MBTilesSink(
                path: folder + "/bench.mbtiles",
                metadata: TileSetMetadata(
                    name: "bench", attribution: nil, pyramid: pyramid, format: TileFormat(), buffer: 128),
                resume: false)
            for metatile in metatiles {
                var image = Image(width: 1, height: 1)
                render += try time { image = try renderer.renderMetatile(metatile) }
                var encoded: [EncodedTile] = []
                for tile in metatile.tiles {
                    var cropped = image
                    cut += try time {
                        cropped = try image.cropped(
                            x: (tile.x - metatile.x) * 256, y: (tile.y - metatile.y) * 256, width: 256, height: 256)
                    }
                    var h = ContentHash(high: 0, low: 0)
                    hash += time { h = cropped.withUnsafeBytes { ContentHash(of: $0) } }
                    tiles += 1
                    if distinct.insert(h).inserted {
                        var data: [UInt8] = []
                        encode += try time { data = try PNG.encode(cropped) }
                        bytes += data.count
                        encoded.append(EncodedTile(tile: tile, data: data, dataHash: ContentHash(of: data)))
                    }
                }
                store += try time { try sink.write(encoded) }
            }
            store += try time { try sink.finish() }
            func row(_ name: String, _ seconds: Double, per count: Int) {
                print(
                    "  " + name.padding(toLength: 30, withPad: " ", startingAt: 0)
                        + String(
                            format: "%7.3f ms/tile  (%6.0f tiles/s)", seconds / Double(count) * 1000,
                            Double(count) / seconds))
            }
            row("draw metatile (per tile)", render, per: tiles)
            row("cut", cut, per: tiles)
            row("hash", hash, per: tiles)
            row("encode PNG (distinct only)", encode, per: distinct.count)
            row("store in MBTiles (distinct)", store, per: distinct.count)
            print(
                "  \(tiles) tiles, \(distinct.count) distinct, \(bytes / max(1, distinct.count)) bytes per distinct tile"
            )

            print("== tiles: whole job, zoom 0-6, directory output")
            for workers in Set([1, ProcessInfo.processInfo.activeProcessorCount]).sorted() {
                let out = folder + "/job\(workers)"
                let plan = try MetatilePlan(pyramid: TilePyramid(zooms: ZoomRange(min: 0, max: 6)), size: 8)
                let summary = try TileJob(plan: plan, workers: workers).run(
                    sink: DirectorySink(root: out, scheme: .xyz), encoder: PNGTileEncoder()
                ) {
                    try MapTileRenderer(map: map, format: TileFormat(), buffer: 128)
                }
                print(
                    String(
                        format: "  %d worker%@: %d tiles in %.2f s = %.0f tiles/s (%d distinct, %d bytes)", workers,
                        workers == 1 ? "" : "s", summary.tiles, summary.seconds, summary.tilesPerSecond,
                        summary.distinct, summary.bytes))
            }
        } catch {
            print("tiles benchmark failed: \(error)")
        }
    }
}
