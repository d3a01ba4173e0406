import Foundation
import TestSupport
import Testing

@testable import Raster

/// Flat palette images compressed by `RunDeflate`: pixels an independent decoder (pypng, on
/// zlib) gives back, every edge of the format met, and detail handed to libdeflate.
@Suite struct PNGRunDeflateTests {
    /// An image of `width` x `height` in `background`, each painted pixel (x, y, colour) set.
    static func painted(width: Int, height: Int, background: RGBA, _ spots: [(Int, Int, RGBA)]) throws -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<width * height {
            bytes.replaceSubrange(i * 4..<i * 4 + 4, with: [background.r, background.g, background.b, background.a])
        }
        for (x, y, c) in spots {
            let i = (y * width + x) * 4
            bytes.replaceSubrange(i..<i + 4, with: [c.r, c.g, c.b, c.a])
        }
        return try Image(width: width, height: height, pixels: bytes)
    }

    /// A map tile's pattern: a plain area, grid-like lines of a colour blended in 16 levels
    /// (rows that repeat the row above, runs across), a translucent corner, a few dots.
    static func gridTile() throws -> Image {
        var spots: [(Int, Int, RGBA)] = []
        for y in 0..<256 {
            let lines: [(x: Int, level: Int)] = [(37, 5), (38, 16), (39, 11), (201, 16)]
            for line in lines {
                let red = UInt8(200 - line.level * 10)
                spots.append((line.x, y, RGBA(red, 40, 40)))
            }
        }
        for x in 0..<256 {
            let red = UInt8(x % 16 * 9)
            spots.append((x, 120, RGBA(red, 40, 40)))
        }
        for y in 0..<10 { for x in 0..<10 { spots.append((x, y, RGBA(0, 0, 255, 128))) } }
        var random = Xorshift(state: 5)
        for _ in 0..<200 {
            let x = Int(random.next() % 256)
            let y = Int(random.next() % 256)
            let green = UInt8(random.next() % 64)
            spots.append((x, y, RGBA(9, green, 9)))
        }
        return try painted(width: 256, height: 256, background: RGBA(230, 225, 210), spots)
    }

    /// Isolated dots whose colours appear 1, 1, 2, 3, 5, 8... times (19 colours, 8% of the
    /// pixels change): literals of very different frequencies, codes from 1 to 13 bits.
    static func skewedTile() throws -> Image {
        var spots: [(Int, Int, RGBA)] = []
        var (a, b) = (1, 1)
        var position = 0
        for colour in 0..<19 {
            for _ in 0..<a {
                // Every fourth pixel of every other row: three pixels of background between
                // dots, a match with the row above.
                let x: Int = position % 128 * 4
                let y: Int = position / 128 * 2
                spots.append((x, y, RGBA(UInt8(colour), 60, 60)))
                position += 1
            }
            (a, b) = (b, a + b)
        }
        return try painted(width: 512, height: 512, background: RGBA(250, 250, 250), spots)
    }

    /// The default with flat images at libdeflate level 1, as before `RunDeflate`.
    static let levelOne: PNGEncodingOptions = {
        var options = PNGEncodingOptions()
        options.palette.flatRuns = false
        options.truecolour.flatRuns = false
        return options
    }()

    /// Huffman codes kept within deflate's 15 bits: frequencies 1, 1, 2, 3, 5... make a tree
    /// one level deeper per symbol, so 30 of them need the limit; the lengths left must still
    /// make a complete prefix code (Kraft's sum exactly 1), or a decoder would reject it.
    @Test func deepCodesAreLimitedAndComplete() {
        var frequencies = [Int](repeating: 0, count: 30)
        var (a, b) = (1, 1)
        for k in 0..<30 {
            frequencies[k] = a
            (a, b) = (b, a + b)
        }
        for limit in [7, 15] {
            let lengths = HuffmanCode.lengths(frequencies, limit: limit)
            #expect(lengths.allSatisfy { $0 >= 1 && Int($0) <= limit })
            let kraft = lengths.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
            #expect(kraft == 1, "limit \(limit): \(lengths)")
        }
        let unlimited = HuffmanCode.lengths(frequencies, limit: 64)
        #expect(unlimited.max() == 29)  // the chain the limit cuts
    }

    @Test func flatPaletteImagesDecodeWithPypng() throws {
        // Rows of more than deflate's 32 KB window: no matches with the row above.
        var wideSpots: [(Int, Int, RGBA)] = []
        for k in 0..<20 {
            let x: Int = 1_000 + k * 1_500
            let red = UInt8(k * 10)
            wideSpots.append((x, k % 3, RGBA(red, 0, 0)))
        }
        let wide = try Self.painted(width: 33_000, height: 3, background: RGBA(1, 2, 3), wideSpots)
        // One colour, one pixel, a one-pixel column: bit depths 1 and the shortest streams.
        let plain = try Self.painted(width: 64, height: 64, background: RGBA(7, 8, 9), [])
        let pixel = try Self.painted(width: 1, height: 1, background: RGBA(7, 8, 9, 10), [])
        let column = try Self.painted(width: 1, height: 300, background: RGBA(7, 8, 9), [(0, 150, RGBA(0, 0, 0))])
        let images: [Image] = [try Self.gridTile(), try Self.skewedTile(), wide, plain, pixel, column]
        var pngs: [[UInt8]] = []
        for (index, image) in images.enumerated() {
            let png = try PNG.encode(image)
            #expect(try #require(ihdrDepthAndType(png)).colourType == 3, "image \(index)")
            // RunDeflate's stream, not libdeflate's: another compressor's bytes (but for a
            // single pixel, which both code alike).
            if image.pixelCount > 1 {
                #expect(png != (try PNG.encode(image, options: Self.levelOne)), "image \(index)")
            }
            pngs.append(png)
        }
        #expect(try referenceDecode(pngs: pngs) == images)
    }

    /// Runs of eight colours (no byte repeats the one before or above it) in 7.8% of the
    /// pixels: flat by the colour-change rule (8.8% of pixels change, under 10%), but more
    /// literals than RunDeflate takes (1 byte in 16), so libdeflate's level 1 encodes it.
    @Test func detailOverTheLiteralBudgetGoesToLibdeflate() throws {
        var spots: [(Int, Int, RGBA)] = []
        var random = Xorshift(state: 3)
        for y in stride(from: 0, to: 256, by: 2) {
            for x in stride(from: Int(random.next() % 24), to: 240, by: 48) {
                for k in 0..<8 {
                    let red = UInt8(k * 20)
                    spots.append((x + k, y, RGBA(red, 0, 90)))
                }
            }
        }
        let image = try Self.painted(width: 256, height: 256, background: RGBA(250, 250, 250), spots)
        let levelOne = Self.levelOne
        let png = try PNG.encode(image)
        #expect(png == (try PNG.encode(image, options: levelOne)))
        // And the same image with a tenth of the dots takes the runs.
        let sparseSpots: [(Int, Int, RGBA)] = spots.enumerated().filter { $0.offset % 80 < 8 }.map(\.element)
        let sparse = try Self.painted(width: 256, height: 256, background: RGBA(250, 250, 250), sparseSpots)
        #expect(try PNG.encode(sparse) != PNG.encode(sparse, options: levelOne))
        #expect(try referenceDecode(bytes: PNG.encode(sparse)) == sparse)
    }

    /// On the flat palette tiles among the fixtures, no more bytes than libdeflate's level 1,
    /// which they took before (measured: about a fifth fewer over the New York MGRS pyramid).
    @Test func flatFixtureTilesNoLargerThanLevelOne() throws {
        let levelOne = Self.levelOne
        var runs = 0
        var before = 0
        for tile in try PNGLibdeflateTests.fixtureTiles() {
            let chosen = try PNG.encode(tile)
            let old = try PNG.encode(tile, options: levelOne)
            guard try #require(ihdrDepthAndType(chosen)).colourType == 3, chosen != old else { continue }
            runs += chosen.count
            before += old.count
        }
        #expect(before > 0, "no flat palette tile among the fixtures")
        #expect(runs <= before, "flat palette tiles: \(runs) bytes by runs, \(before) at level 1")
    }
}
