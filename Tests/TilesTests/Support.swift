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
