import TestSupport
import Testing

@testable import Raster

/// `count` distinct colours; opaque unless `translucent` (then every third one is not).
private func distinctColours(_ count: Int, translucent: Bool = false) -> [RGBA] {
    (0..<count).map { (i: Int) -> RGBA in
        let alpha: UInt8 = translucent && i % 3 == 1 ? UInt8(i % 200) : 255
        return RGBA(UInt8(i & 0xFF), UInt8((i * 7) & 0xFF), UInt8(i >> 8), alpha)
    }
}

@Suite struct PNGEncodeTests {
    /// (colour count, translucent) -> expected (IHDR colour type, bit depth, has tRNS).
    static let cases: [(count: Int, translucent: Bool, type: Int, depth: Int, trns: Bool)] = [
        (1, false, 3, 1, false),
        (2, false, 3, 1, false),
        (3, true, 3, 2, true),
        (4, false, 3, 2, false),
        (5, false, 3, 4, false),
        (16, true, 3, 4, true),
        (17, false, 3, 8, false),
        (256, false, 3, 8, false),
        (256, true, 3, 8, true),
        (257, false, 2, 8, false),
        (4000, false, 2, 8, false),
        (257, true, 6, 8, false),
        (4000, true, 6, 8, false),
    ]

    @Test(arguments: cases.indices)
    func choosesTheColourTypeAndRoundTripsExactly(index: Int) throws {
        let c = Self.cases[index]
        let original = try image(width: 67, height: 61, colours: distinctColours(c.count, translucent: c.translucent))
        let png = try PNG.encode(original)
        let ihdr = try #require(ihdrDepthAndType(png))
        #expect(
            ihdr.colourType == c.type && ihdr.depth == c.depth,
            "\(c.count) colours: got type \(ihdr.colourType) depth \(ihdr.depth)")
        let names = chunks(of: png).map(\.type)
        #expect(names.contains("tRNS") == c.trns)
        #expect(names.contains("PLTE") == (c.type == 3))
        if c.type == 3 {
            let plte = try #require(chunks(of: png).first { $0.type == "PLTE" })
            #expect(plte.data.count == c.count * 3)
        }
        #expect(try PNG.decode(png) == original)
        #expect(try referenceDecode(bytes: png) == original)
    }

    /// Indices packed 1, 2 and 4 bits a pixel, from the census's notes (opaque) and from the
    /// pixels (a translucent palette), at every row width up to two words of eight and a
    /// tail: what pypng decodes is the image. Random indices put every value in every field.
    @Test func packedIndicesDecodeWithPypng() throws {
        var images: [Image] = []
        for (count, translucent) in [(2, false), (4, false), (16, false), (3, true), (16, true)] {
            for width in 1...19 {
                images.append(
                    try image(
                        width: width, height: 5, colours: distinctColours(count, translucent: translucent),
                        seed: UInt64(width * 31 + count)))
            }
        }
        let folder = try scratchDirectory()
        defer { TemporaryFolder.remove(folder) }
        var paths: [String] = []
        for (index, original) in images.enumerated() {
            let path = "\(folder)/\(index).png"
            try PNG.write(original, toPath: path)
            paths.append(path)
        }
        let decoded = try referenceDecode(paths)
        for (index, original) in images.enumerated() {
            #expect(decoded[index] == original, "image \(index): \(original.width) wide")
        }
    }

    /// tRNS lists only the translucent entries, which the encoder puts first.
    @Test func translucentPaletteEntriesComeFirst() throws {
        let colours = [RGBA(1, 1, 1), RGBA(2, 2, 2, 100), RGBA(3, 3, 3), RGBA(4, 4, 4, 0)]
        let original = try image(width: 4, height: 1, colours: colours)
        let png = try PNG.encode(
            original,
            options: {
                var o = PNGEncodingOptions()
                o.packPaletteBits = false
                return o
            }())
        let all = chunks(of: png)
        #expect(all.first { $0.type == "tRNS" }?.data == [100, 0])
        #expect(all.first { $0.type == "PLTE" }?.data == [2, 2, 2, 4, 4, 4, 1, 1, 1, 3, 3, 3])
        #expect(all.first { $0.type == "IHDR" }?.data[8] == 8)
        #expect(try PNG.decode(png) == original)
    }

    @Test func sameImageSameBytes() throws {
        for count in [3, 200, 5000] {
            let original = try image(
                width: 130, height: 70, colours: distinctColours(count, translucent: count == 5000))
            let first = try PNG.encode(original)
            let copy = original  // a separate value with the same pixels
            #expect(try PNG.encode(copy) == first)
            #expect(try PNG.encode(original) == first)
        }
    }

    /// Every filter, strategy and level gives a PNG that decodes to the same pixels.
    @Test func everyCompressionSettingRoundTrips() throws {
        let rgba = try image(width: 40, height: 33, colours: distinctColours(600, translucent: true))
        let palette = try image(width: 40, height: 33, colours: distinctColours(40))
        for filter in PNGCompression.Filter.allCases {
            for strategy in PNGCompression.Strategy.allCases {
                for level in [0, 1, 9] {
                    var options = PNGEncodingOptions()
                    options.truecolour = PNGCompression(filter: filter, level: level, strategy: strategy)
                    options.palette = options.truecolour
                    #expect(try PNG.decode(PNG.encode(rgba, options: options)) == rgba)
                    #expect(try PNG.decode(PNG.encode(palette, options: options)) == palette)
                }
            }
        }
        var forced = PNGEncodingOptions()
        forced.colourMode = .alwaysRGBA
        let png = try PNG.encode(palette, options: forced)
        #expect(ihdrDepthAndType(png)?.colourType == 6)
        #expect(try PNG.decode(png) == palette)
    }

    @Test func physRecordsTheResolution() throws {
        let original = Image(width: 3, height: 2, fill: .white)
        let png = try PNG.encode(original, options: PNGEncodingOptions(dotsPerInch: 300))
        let phys = try #require(chunks(of: png).first { $0.type == "pHYs" })
        // 300 / 0.0254 = 11811.02 pixels per metre, unit byte 1 = metre.
        #expect(bigEndian32(phys.data[0..<4]) == 11811 && bigEndian32(phys.data[4..<8]) == 11811)
        #expect(phys.data[8] == 1)
        #expect(!chunks(of: try PNG.encode(original)).contains { $0.type == "pHYs" })
        #expect(throws: PNGError.self) { try PNG.encode(original, options: PNGEncodingOptions(dotsPerInch: 0)) }
    }

    @Test func emptyImagesCannotBeEncoded() {
        #expect(throws: PNGError(.unencodable, "a 0x5 image has no pixels")) {
            try PNG.encode(Image(width: 0, height: 5))
        }
    }

    /// A tile cut out of a larger image encodes like the same pixels built directly.
    @Test func croppedImagesEncodeTheirOwnPixels() throws {
        let big = try image(width: 50, height: 40, colours: distinctColours(300, translucent: true))
        let tile = try big.cropped(x: 10, y: 5, width: 16, height: 16)
        let rebuilt = try Image(width: 16, height: 16, pixels: tile.pixels)
        #expect(try PNG.encode(tile) == PNG.encode(rebuilt))
        #expect(try PNG.decode(PNG.encode(tile)) == rebuilt)
    }
}

@Suite struct PaletteColoursTests {
    @Test func listsColoursUpTo256() throws {
        let colours = [RGBA(1, 2, 3), RGBA(9, 9, 9, 0), RGBA(4, 5, 6)]
        let small = try image(width: 10, height: 10, colours: colours)
        #expect(small.paletteColours == [RGBA(9, 9, 9, 0), RGBA(1, 2, 3), RGBA(4, 5, 6)])
        let many = try image(
            width: 20, height: 20, colours: (0..<257).map { RGBA(UInt8($0 % 256), UInt8($0 / 256), 0) })
        #expect(many.paletteColours == nil)
        #expect(Image(width: 0, height: 0).paletteColours == [])
    }
}
