import Foundation
import Raster

/// `meridian-bench png`: how fast and how small PNG encoding is for representative map tiles
/// (Fixtures/png/tiles, drawn by Fixtures/png/make-bench-tiles.py) under every candidate
/// filter / zlib level / strategy, so that the defaults in PNGEncodingOptions can be checked
/// and re-chosen by measurement. Also times the other per-tile costs of a pyramid: importing
/// a Cairo metatile, cutting it into tiles, counting colours.
enum PNGBench {
    static let tileDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/png/tiles").path
    }()

    /// Seconds of encoding per measurement; `MERIDIAN_BENCH_QUICK=1` shortens it.
    static let budget: Double = ProcessInfo.processInfo.environment["MERIDIAN_BENCH_QUICK"] == "1" ? 0.03 : 0.25

    struct Measurement {
        let bytes: Int  // total encoded size of the group, one pass
        let seconds: Double  // per pass over the group
        let tiles: Int
        let rawBytes: Int

        var tilesPerSecond: Double { Double(tiles) / seconds }
        var megabytesPerSecond: Double { Double(rawBytes) / seconds / 1_000_000 }
    }

    static func run() {
        print("== png: encoding representative map tiles")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: tileDirectory)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
        guard !names.isEmpty else {
            print("no tiles in \(tileDirectory)")
            return
        }
        var tiles: [(name: String, image: Image)] = []
        for name in names {
            do {
                tiles.append((name, try PNG.decode(contentsOf: tileDirectory + "/" + name)))
            } catch {
                print("skipping \(name): \(error)")
            }
        }
        // Group by the colour type the automatic choice gives each tile.
        var palette: [Image] = []
        var truecolour: [Image] = []
        var typeCounts: [String: Int] = [:]
        for (_, image) in tiles {
            let type = (try? PNG.header(of: PNG.encode(image)))?.colourType.description ?? "?"
            typeCounts[type, default: 0] += 1
            if type == "palette" { palette.append(image) } else { truecolour.append(image) }
        }
        print("\(tiles.count) tiles of \(tiles[0].image.width)x\(tiles[0].image.height) from \(tileDirectory)")
        print(
            "colour types chosen: "
                + typeCounts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))

        let levels = [1, 2, 3, 4, 6, 9]
        let strategies: [PNGCompression.Strategy] = [.default, .filtered, .rle]
        for (label, group) in [("palette tiles", palette), ("RGB/RGBA tiles", truecolour)] where !group.isEmpty {
            print("\n-- \(label) (\(group.count)): every filter x level x strategy, sorted by size")
            var rows: [(PNGCompression, Measurement)] = []
            for filter in PNGCompression.Filter.allCases {
                for level in levels {
                    for strategy in strategies {
                        let compression = PNGCompression(filter: filter, level: level, strategy: strategy)
                        var options = PNGEncodingOptions()
                        options.palette = compression
                        options.truecolour = compression
                        rows.append((compression, measure(group, options)))
                    }
                }
            }
            // libdeflate: unfiltered rows only, no strategies, levels up to 12.
            for level in [1, 2, 3, 4, 5, 6, 7, 9, 12] {
                let compression = PNGCompression(filter: .none, level: level, strategy: .default, deflater: .libdeflate)
                var options = PNGEncodingOptions()
                options.palette = compression
                options.truecolour = compression
                rows.append((compression, measure(group, options)))
            }
            let smallest = rows.map(\.1.bytes).min()!
            let fastest = rows.map(\.1.tilesPerSecond).max()!
            print("(speeds are per core, from thread CPU time; sizes are exact)")
            print(pad("setting", 36) + pad("bytes", 10) + pad("vs min", 8) + pad("tiles/s", 9) + "MB/s")
            for (compression, m) in rows.sorted(by: {
                ($0.1.bytes, $1.1.tilesPerSecond) < ($1.1.bytes, $0.1.tilesPerSecond)
            }) {
                let marks = (m.bytes == smallest ? " smallest" : "") + (m.tilesPerSecond == fastest ? " fastest" : "")
                print(
                    pad(compression.description, 36) + pad(String(m.bytes), 10)
                        + pad(String(format: "+%.1f%%", Double(m.bytes - smallest) / Double(smallest) * 100), 8)
                        + pad(String(format: "%.0f", m.tilesPerSecond), 9)
                        + String(format: "%.1f", m.megabytesPerSecond) + marks)
            }
        }

        let all = tiles.map(\.image)
        print("\n-- all \(all.count) tiles: the chosen defaults against alternatives")
        var libpngDefaults = PNGEncodingOptions()
        libpngDefaults.palette = PNGCompression(filter: .adaptive, level: 6, strategy: .default)
        libpngDefaults.truecolour = libpngDefaults.palette
        var rgbaOnly = libpngDefaults
        rgbaOnly.colourMode = .alwaysRGBA
        var unpacked = PNGEncodingOptions()
        unpacked.packPaletteBits = false
        var zlibBefore = PNGEncodingOptions()
        zlibBefore.palette = PNGCompression(filter: .none, level: 6, strategy: .default)
        zlibBefore.truecolour = PNGCompression(filter: .none, level: 3, strategy: .default)
        let candidates: [(String, PNGEncodingOptions)] = [
            ("chosen defaults", PNGEncodingOptions()),
            ("before libdeflate: zlib, none, 6 / 3", zlibBefore),
            ("chosen, 8-bit palettes only", unpacked),
            ("libpng defaults (adaptive, 6), auto colour", libpngDefaults),
            ("libpng defaults, always RGBA", rgbaOnly),
        ]
        print(pad("options", 46) + pad("bytes", 10) + pad("tiles/s", 9) + "MB/s")
        for (label, options) in candidates {
            let m = measure(all, options)
            print(
                pad(label, 46) + pad(String(m.bytes), 10) + pad(String(format: "%.0f", m.tilesPerSecond), 9)
                    + String(format: "%.1f", m.megabytesPerSecond))
        }
        print(
            "chosen: palette \(PNGEncodingOptions.measuredPalette); RGB/RGBA \(PNGEncodingOptions.measuredTruecolour)")

        metatileCosts(all)
    }

    /// The rest of a tile's way: a 2304 x 2304 Cairo metatile (9 x 9 tiles) imported,
    /// cut into 81 tiles, colour-counted.
    static func metatileCosts(_ tiles: [Image]) {
        let side = 2304
        let tileSide = 256
        var metatile = Image(width: side, height: side)
        metatile.withUnsafeMutableBytes { out in
            for ty in 0..<9 {
                for tx in 0..<9 {
                    let tile = tiles[(ty * 9 + tx) % tiles.count]
                    tile.withUnsafeBytes { source in
                        for row in 0..<tileSide {
                            let target = ((ty * tileSide + row) * side + tx * tileSide) * 4
                            out[target..<target + tileSide * 4].copyBytes(
                                from: source[row * tileSide * 4..<(row + 1) * tileSide * 4])
                        }
                    }
                }
            }
        }
        // Premultiply into Cairo's layout: native-endian 0xAARRGGBB words.
        var argb = [UInt32](repeating: 0, count: side * side)
        for i in 0..<side * side {
            let p = metatile.pixels[i * 4..<i * 4 + 4].map(UInt32.init)
            let a = p[3]
            argb[i] = a << 24 | (p[0] * a + 127) / 255 << 16 | (p[1] * a + 127) / 255 << 8 | (p[2] * a + 127) / 255
        }
        print("\n-- per metatile (\(side)x\(side), 81 tiles)")
        let imported = time(repeat: 20) {
            _ = argb.withUnsafeBytes { try? Image(cairoARGB32: $0, width: side, height: side, stride: side * 4) }
        }
        print(
            String(
                format: "Cairo ARGB32 import: %.2f ms (%.0f Mpixel/s)", imported * 1000,
                Double(side * side) / imported / 1e6))
        let cut = time(repeat: 20) {
            for ty in 0..<9 {
                for tx in 0..<9 { _ = try? metatile.cropped(x: tx * 256, y: ty * 256, width: 256, height: 256) }
            }
        }
        print(String(format: "crop into 81 tiles: %.2f ms", cut * 1000))
        let census = time(repeat: 5) {
            for tile in tiles { _ = tile.paletteColours }
        }
        print(String(format: "colour census: %.1f us per tile", census / Double(tiles.count) * 1e6))
    }

    static func measure(_ images: [Image], _ options: PNGEncodingOptions) -> Measurement {
        var bytes = 0
        for image in images { bytes += (try? PNG.encode(image, options: options).count) ?? 0 }
        var passes = 0
        let start = cpuSeconds()
        var elapsed = 0.0
        repeat {
            for image in images { _ = try? PNG.encode(image, options: options) }
            passes += 1
            elapsed = cpuSeconds() - start
        } while elapsed < budget
        return Measurement(
            bytes: bytes, seconds: elapsed / Double(passes), tiles: images.count,
            rawBytes: images.reduce(0) { $0 + $1.pixels.count })
    }

    static func time(repeat count: Int, _ body: () -> Void) -> Double {
        body()  // warm up
        let start = cpuSeconds()
        for _ in 0..<count { body() }
        return (cpuSeconds() - start) / Double(count)
    }

    /// CPU time of this thread: on a machine shared with other work, wall-clock time would
    /// measure the neighbours too. Everything measured here runs on the calling thread.
    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
