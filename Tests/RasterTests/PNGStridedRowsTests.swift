import Foundation
import TestSupport
import Testing

@testable import Raster

/// A tile is encoded where it lies in its metatile: rows of the tile's width, as far apart as
/// the metatile's rows. The census and the bytes must be those of the tile copied out, whatever
/// the pixels beside it.
@Suite struct PNGStridedRowsTests {
    /// `image` in Cairo's words at column `left` of a block `extra` pixels wider, the pixels
    /// around it random (translucent ones among them): the block, and where the image starts.
    static func embedded(_ image: Image, left: Int, extra: Int, seed: UInt64) -> (
        block: [UInt8], offset: Int, stride: Int
    ) {
        let words = PNGCairoWordsTests.cairoWords(image)
        let width = image.width + extra
        var random = Xorshift(state: seed)
        var block = [UInt8](repeating: 0, count: width * image.height * 4)
        for i in block.indices { block[i] = UInt8(truncatingIfNeeded: random.next()) }
        for y in 0..<image.height {
            let target = (y * width + left) * 4
            block.replaceSubrange(
                target..<target + image.width * 4, with: words[y * image.width * 4..<(y + 1) * image.width * 4])
        }
        return (block, left * 4, width * 4)
    }

    /// Images whose rows repeat, whose colours pass 256 in the first row or far down, narrower
    /// than a block of eight pixels, and of widths that are not a multiple of eight.
    static func images() throws -> [Image] {
        var images = try PNGLibdeflateTests.fixtureTiles().filter { $0.isOpaque }
        images.append(try PNGFlatLevelTests.flat(spots: 40))
        images.append(try PNGFlatLevelTests.flat(spots: 1_500))
        images.append(try PNGFlatLevelTests.flat(spots: 8_000))
        images.append(try image(width: 40, height: 30, colours: [RGBA(181, 208, 208), RGBA(242, 239, 233)]))
        let many = (0..<600).map { RGBA(UInt8($0 % 256), UInt8($0 / 256 * 40), 77) }
        images.append(try image(width: 5, height: 120, colours: many, seed: 3))
        images.append(try image(width: 13, height: 50, colours: many, seed: 4))
        images.append(try image(width: 3, height: 9, colours: Array(many.prefix(4)), seed: 5))
        // Flat down to the last rows, then past 256 colours.
        var late = Image(width: 64, height: 64, fill: RGBA(200, 220, 235))
        for i in 0..<400 { late[i % 64, 56 + i / 64] = RGBA(UInt8(i % 256), UInt8(i / 256), 9) }
        images.append(late)
        return images
    }

    @Test func aTileReadWithAStrideCountsAndEncodesAsItsCopy() throws {
        let images = try Self.images()
        var strided = 0
        for (index, image) in images.enumerated() {
            let copied = PNGCairoWordsTests.cairoWords(image)
            let expected = try #require(try PNGCairoWordsTests.encodeWords(image), "image \(index)")
            for (left, extra) in [(0, 0), (0, 5), (7, 8), (3, 256)] {
                let (block, offset, stride) = Self.embedded(
                    image, left: left, extra: extra, seed: UInt64(index * 10 + extra + 1))
                try block.withUnsafeBytes { raw in
                    let rows = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    let census = ColourCensus(rows: rows, width: image.width, height: image.height, stride: stride)
                    let reference = copied.withUnsafeBytes { ColourCensus($0, width: image.width) }
                    #expect(census.colours == reference.colours, "image \(index), stride \(stride)")
                    #expect(census.changes == reference.changes, "image \(index), stride \(stride)")
                    #expect(census.opaque && reference.opaque, "image \(index), stride \(stride)")
                    #expect(census.fitsPalette == reference.fitsPalette, "image \(index), stride \(stride)")
                    let encoded = try PNG.encodeOpaque(
                        cairoARGB32: rows, width: image.width, height: image.height, stride: stride)
                    #expect(encoded == expected, "image \(index), stride \(stride)")
                }
                if extra > 0 { strided += 1 }
            }
        }
        #expect(strided >= 3 * images.count)
    }

    /// One translucent pixel in the tile still sends it to the conversion; translucent
    /// pixels beside it do not.
    @Test func onlyTheTilesOwnPixelsDecideOpacity() throws {
        func encodeEmbedded(_ tile: Image) throws -> [UInt8]? {
            let (block, offset, stride) = Self.embedded(tile, left: 2, extra: 9, seed: 99)
            return try block.withUnsafeBytes {
                try PNG.encodeOpaque(
                    cairoARGB32: UnsafeRawBufferPointer(rebasing: $0[offset...]), width: tile.width,
                    height: tile.height, stride: stride)
            }
        }
        var tile = try PNGFlatLevelTests.flat(spots: 10)
        #expect(try encodeEmbedded(tile) != nil)
        tile[255, 255] = RGBA(10, 20, 30, 128)
        #expect(try encodeEmbedded(tile) == nil)
    }
}
