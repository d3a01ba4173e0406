import TestSupport
import Testing

@testable import Raster

/// Flat RGB and RGBA images compressed by `RunDeflate`, whose runs repeat the pixel to the
/// left (3 or 4 bytes back): pixels an independent decoder (pypng, on zlib) gives back,
/// fewer bytes than libdeflate's level 1 on flat tiles, detail handed to libdeflate.
@Suite struct PNGRunDeflateTruecolourTests {
    /// A map tile's pattern with more colours than a palette holds: a plain area crossed by
    /// two lines whose anti-aliased edges take 300 shades, a band of a second colour, and a
    /// translucent corner when `translucent`.
    static func flatTile(translucent: Bool) throws -> Image {
        var spots: [(Int, Int, RGBA)] = []
        for y in 0..<256 {
            let shade = UInt8(y % 150)
            spots.append((40, y, RGBA(shade, 90, 200)))
            spots.append((41, y, RGBA(90, shade, 200)))
            spots.append((170 + y / 64, y, RGBA(30, 30, 30)))
        }
        for y in 200..<220 { for x in 0..<256 { spots.append((x, y, RGBA(240, 230, 200))) } }
        if translucent { for y in 0..<12 { for x in 0..<12 { spots.append((x, y, RGBA(0, 0, 255, 100))) } } }
        return try PNGRunDeflateTests.painted(width: 256, height: 256, background: RGBA(220, 225, 215), spots)
    }

    @Test func flatTruecolourImagesTakeTheRunsAndDecodeWithPypng() throws {
        let images = [try Self.flatTile(translucent: false), try Self.flatTile(translucent: true)]
        var pngs: [[UInt8]] = []
        for (index, image) in images.enumerated() {
            #expect(image.paletteColours == nil, "image \(index) has more colours than a palette")
            let png = try PNG.encode(image)
            #expect(try #require(ihdrDepthAndType(png)).colourType == (index == 0 ? 2 : 6))
            let levelOne = try PNG.encode(image, options: PNGRunDeflateTests.levelOne)
            #expect(png != levelOne, "image \(index): RunDeflate's stream, not libdeflate's")
            #expect(png.count < levelOne.count, "image \(index): \(png.count) bytes, \(levelOne.count) at level 1")
            pngs.append(png)
        }
        #expect(try referenceDecode(pngs: pngs) == images)
    }

    /// The one flat RGB tile among the fixtures (slanted streets, 7.7% of pixels changing) has
    /// more literal bytes than the budget allows (one in 24): it keeps libdeflate's level 1,
    /// which codes it in 30% fewer bytes than the runs would.
    @Test func slantedStreetsGoToLibdeflate() throws {
        let tile = try PNG.decode(contentsOf: Repository.fixture("png/tiles/base-14-4825-6157.png"))
        let census = tile.pixels.withUnsafeBytes { ColourCensus($0, width: tile.width) }
        #expect(!census.fitsPalette)
        #expect(PNGEncodingOptions().truecolour.choice(pixels: tile.pixelCount, changes: census.changes).runs)
        #expect(try PNG.encode(tile) == PNG.encode(tile, options: PNGRunDeflateTests.levelOne))
    }
}
