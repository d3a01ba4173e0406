import TestSupport
import Testing

@testable import Raster

/// RGB/RGBA images whose colour rarely changes from one pixel to the next (plain areas
/// crossed by lines) are compressed at libdeflate level 1, detailed ones at level 5.
@Suite struct PNGFlatLevelTests {
    /// The default truecolour settings with one level for every image.
    static func fixed(level: Int) -> PNGEncodingOptions {
        var options = PNGEncodingOptions()
        options.truecolour = PNGCompression(filter: .none, level: level, strategy: .default, deflater: .libdeflate)
        return options
    }

    /// A 256 x 256 opaque image of one colour with `spots` pixels of distinct colours (more
    /// than a palette holds) at pseudo-random places: about 2 `spots` colour changes.
    static func flat(spots: Int) throws -> Image {
        var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for i in 0..<256 * 256 { pixels.replaceSubrange(i * 4..<i * 4 + 4, with: [200, 220, 235, 255]) }
        var random = Xorshift(state: 11)
        for spot in 0..<spots {
            let i = Int(random.next() % UInt64(256 * 256))
            pixels.replaceSubrange(i * 4..<i * 4 + 3, with: [UInt8(spot & 0xFF), UInt8(spot >> 8), 40])
        }
        return try Image(width: 256, height: 256, pixels: pixels)
    }

    @Test func flatImagesTakeTheFlatLevelAndDecodeWithPypng() throws {
        let image = try Self.flat(spots: 1_500)  // about 4.6% of pixels change
        #expect(image.paletteColours == nil)
        let png = try PNG.encode(image)
        let level1 = try PNG.encode(image, options: Self.fixed(level: 1))
        let level5 = try PNG.encode(image, options: Self.fixed(level: 5))
        #expect(level1 != level5)  // the levels tell apart on this image
        // The flat level, where `RunDeflate` does not take the image (`PNGRunDeflateTests`).
        #expect(try PNG.encode(image, options: PNGRunDeflateTests.levelOne) == level1)
        #expect(png != level5)
        #expect(try referenceDecode(bytes: png) == image)
    }

    @Test func detailedImagesKeepTheLevel() throws {
        let image = try Self.flat(spots: 8_000)  // about 22% of pixels change
        let png = try PNG.encode(image)
        #expect(png == (try PNG.encode(image, options: Self.fixed(level: 5))))
        #expect(png != (try PNG.encode(image, options: Self.fixed(level: 1))))
        // Options that set their own compression (imagery: sub filter, level 6) get no flat level.
        let flat = try Self.flat(spots: 1_500)
        var sub = PNGEncodingOptions.imagery
        sub.truecolour.level = 1
        #expect(try PNG.encode(flat, options: .imagery) != PNG.encode(flat, options: sub))
    }

    /// A nearly flat tile (a city block's streets and labels, 14.5% of pixels changing: over the
    /// runs' 10%, under 15%) takes the flat level without the runs, not level 5.
    @Test func nearlyFlatImagesTakeTheFlatLevel() throws {
        let tile = try PNG.decode(contentsOf: Repository.fixture("png/tiles/base-13-2412-3078.png"))
        let census = tile.pixels.withUnsafeBytes { ColourCensus($0, width: tile.width) }
        #expect(!census.fitsPalette)
        let share = Double(census.changes) / Double(tile.pixelCount)
        #expect(share > PNGCompression.flatChanges && share < PNGCompression.nearlyFlatChanges, "\(share)")
        let png = try PNG.encode(tile)
        #expect(png == (try PNG.encode(tile, options: Self.fixed(level: 1))))
        #expect(png != (try PNG.encode(tile, options: Self.fixed(level: 5))))
        #expect(try referenceDecode(bytes: png) == tile)
    }

    /// The tiles the levels were chosen on lose little: at most 0.5% more bytes than level 5
    /// throughout (0.35%: five of them are nearly flat and take level 1, 5% larger each).
    @Test func representativeTilesStayAsSmall() throws {
        var chosen = 0
        var level5 = 0
        for tile in try PNGLibdeflateTests.fixtureTiles() {
            chosen += try PNG.encode(tile).count
            level5 += try PNG.encode(tile, options: Self.fixed(level: 5)).count
        }
        #expect(chosen >= level5)
        #expect(Double(chosen) <= Double(level5) * 1.005, "\(chosen) bytes against \(level5) at level 5")
    }
}
