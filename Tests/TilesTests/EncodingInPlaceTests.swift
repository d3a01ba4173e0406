import Foundation
import Raster
import Synchronization
import Testing

@testable import Tiles

/// Tiles are encoded where they lie in their metatile, and the encoding cache copies a tile's
/// pixels only to keep them: when its hash was met before.
@Suite struct EncodingInPlaceTests {
    /// Records where each tile in Cairo's words was read from, and encodes it as PNG.
    final class RecordingEncoder: TileEncoding {
        /// The address of each tile's first byte, and its stride.
        let reads = Mutex<[(start: Int, stride: Int)]>([])

        func encode(_ tile: Image) throws -> [UInt8] { try PNG.encode(tile) }

        func encode(cairoARGB32 tile: UnsafeRawBufferPointer, side: Int, stride: Int) throws -> [UInt8] {
            let start = Int(bitPattern: tile.baseAddress)
            reads.withLock { $0.append((start, stride)) }
            return try PNGTileEncoder().encode(cairoARGB32: tile, side: side, stride: stride)
        }
    }

    /// A block of four 16 x 16 tiles side by side in Cairo's words, each of its own two
    /// colours (none of one colour): the words, and each tile as an image.
    static func block() -> (words: [UInt32], tiles: [Image]) {
        let side = 16
        var words = [UInt32](repeating: 0xFFB5_D0D0, count: 4 * side * side)
        var tiles: [Image] = []
        for t in 0..<4 {
            var image = Image(width: side, height: side, fill: RGBA(181, 208, 208))
            for y in 0..<side {
                let x = (t * 3 + y) % side
                words[y * 4 * side + t * side + x] = 0xFF10_2030 | UInt32(t)
                image[x, y] = RGBA(0x10, 0x20, 0x30 | UInt8(t))
            }
            tiles.append(image)
        }
        return (words, tiles)
    }

    /// `body` with the block as a metatile in Cairo's words (rows 256 bytes apart) and its
    /// bytes, and a fresh cache and encoder.
    static func withBlock(
        _ body: (MetatilePixels, UnsafeRawBufferPointer, EncodingCache, RecordingEncoder) throws -> Void
    ) throws {
        let (words, _) = block()
        try words.withUnsafeBytes { bytes in
            let pixels = MetatilePixels(
                bytes: bytes, width: 64, height: 16, stride: 256, layout: .premultipliedARGB32)
            try body(pixels, bytes, EncodingCache(), RecordingEncoder())
        }
    }

    /// The encoder is handed the metatile's own rows, not a copy, and gives each tile the
    /// bytes of the tile cut out as an image.
    @Test func cairoTilesAreEncodedWhereTheyLie() throws {
        let tiles = Self.block().tiles
        try Self.withBlock { pixels, bytes, cache, encoder in
            for t in 0..<4 {
                let tile = pixels.tile(x: t * 16, y: 0, side: 16)
                let encoded = try cache.encoding(of: tile) { try tile.encode(with: encoder) }
                #expect(encoded.data == (try PNG.encode(tiles[t])), "tile \(t)")
            }
            let reads = encoder.reads.withLock { $0 }
            #expect(reads.count == 4)
            for (t, read) in reads.enumerated() {
                #expect(read.start == Int(bitPattern: bytes.baseAddress) + t * 64, "tile \(t)")
                #expect(read.stride == 256, "tile \(t)")
            }
        }
    }

    /// Tiles met once are encoded and not copied; a tile met again is encoded once more and
    /// kept (one copy), and reused from then on.
    @Test func onlyATileMetAgainIsCopied() throws {
        try Self.withBlock { pixels, _, cache, encoder in
            func meet(_ t: Int) throws {
                let tile = pixels.tile(x: t * 16, y: 0, side: 16)
                _ = try cache.encoding(of: tile) { try tile.encode(with: encoder) }
            }
            for t in 0..<4 { try meet(t) }
            #expect(cache.counts == (encodings: 4, reuses: 0, copies: 0), "\(cache.counts)")
            for _ in 0..<3 { try meet(2) }
            #expect(cache.counts == (encodings: 5, reuses: 2, copies: 1), "\(cache.counts)")
        }
    }
}
