import Foundation
import Raster
import Synchronization

@testable import Tiles

/// A stand-in renderer for pipeline tests: each tile's pixels are a function of the tile
/// alone. Tiles on even rows of zoom >= 2 are one flat colour ("ocean"), so many tiles are
/// identical; the others carry their coordinates in their pixels, so each is distinct.
final class PatternRenderer: MetatileRendering {
    let side: Int

    init(side: Int = 16) {
        self.side = side
    }

    func renderMetatile(_ metatile: Metatile) throws -> Image {
        PatternRenderer.block(metatile, side: side)
    }

    /// The tiles of `metatile` side by side in one image.
    static func block(_ metatile: Metatile, side: Int) -> Image {
        var block = Image(width: metatile.columns * side, height: metatile.rows * side)
        for tile in metatile.tiles {
            let image = PatternRenderer.image(of: tile, side: side)
            for y in 0..<side {
                for x in 0..<side {
                    block[(tile.x - metatile.x) * side + x, (tile.y - metatile.y) * side + y] = image[x, y]
                }
            }
        }
        return block
    }

    static func image(of tile: TileID, side: Int) -> Image {
        if tile.z >= 2 && tile.y % 2 == 0 { return Image(width: side, height: side, fill: RGBA(181, 208, 208)) }
        var image = Image(width: side, height: side, fill: RGBA(242, 239, 233))
        image[0, 0] = RGBA(UInt8(tile.z), UInt8(tile.x & 255), UInt8(tile.y & 255))
        image[1, 0] = RGBA(UInt8(tile.x >> 8), UInt8(tile.y >> 8), 7)
        return image
    }
}

/// Counts encodings and encodes as raw bytes with a tiny header (fast, deterministic).
final class CountingEncoder: TileEncoding {
    let count = Mutex(0)

    func encode(_ tile: Image) throws -> [UInt8] {
        count.withLock { $0 += 1 }
        return [UInt8(tile.width & 255), UInt8(tile.height & 255)] + tile.pixels
    }
}

enum Scratch {
    /// A fresh empty folder.
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("meridian-tiles-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every regular file under `root` (relative path -> bytes).
    static func files(under root: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try FileIO.readBytes(atPath: path)
            }
        }
        return result
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func fixture(_ path: String) -> String { repository.appendingPathComponent("Fixtures/" + path).path }
}

/// Runs `sqlite3` (Debian's command-line shell: an independent reader) and returns its output.
func sqliteShell(_ database: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-batch", database, sql]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
