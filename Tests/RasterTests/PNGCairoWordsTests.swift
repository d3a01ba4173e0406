import Foundation
import TestSupport
import Testing

@testable import Raster

/// Opaque pixels in Cairo's ARGB32 words are encoded without converting them to an image:
/// the bytes must be those of the converted image's encoding, and pypng must read back the
/// image's pixels.
@Suite struct PNGCairoWordsTests {
    /// The image as Cairo holds it: native-endian words 0xAARRGGBB, colour premultiplied
    /// (rounded as Cairo does: c * a / 255 to the nearest).
    static func cairoWords(_ image: Image) -> [UInt8] {
        var words = [UInt32]()
        words.reserveCapacity(image.pixelCount)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                let a = UInt32(p.a)
                func premultiplied(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                words.append(a << 24 | premultiplied(p.r) << 16 | premultiplied(p.g) << 8 | premultiplied(p.b))
            }
        }
        return words.withUnsafeBytes { Array($0) }
    }

    static func encodeWords(_ image: Image, options: PNGEncodingOptions = PNGEncodingOptions()) throws -> [UInt8]? {
        try cairoWords(image).withUnsafeBytes {
            try PNG.encodeOpaque(cairoARGB32: $0, width: image.width, height: image.height, options: options)
        }
    }

    /// Opaque images of every kind the encoder meets: the representative map tiles (palette
    /// and RGB), a two-colour image (1-bit indices), a flat image past a palette (level 1) and
    /// a detailed one (level 5), one with a resolution (pHYs).
    @Test func opaqueWordsEncodeAsTheConvertedImageAndDecodeWithPypng() throws {
        var images = try PNGLibdeflateTests.fixtureTiles().filter { $0.isOpaque }
        images.append(try image(width: 40, height: 30, colours: [RGBA(181, 208, 208), RGBA(242, 239, 233)]))
        images.append(try PNGFlatLevelTests.flat(spots: 1_500))
        images.append(try PNGFlatLevelTests.flat(spots: 8_000))
        #expect(images.count >= 25)
        let folder = try scratchDirectory()
        defer { TemporaryFolder.remove(folder) }
        var paths: [String] = []
        var kinds = Set<String>()
        for (index, image) in images.enumerated() {
            let words = try #require(try Self.encodeWords(image))
            let converted = try Self.cairoWords(image).withUnsafeBytes {
                try Image(cairoARGB32: $0, width: image.width, height: image.height, stride: image.width * 4)
            }
            #expect(converted == image)
            #expect(words == (try PNG.encode(converted)), "image \(index)")
            let header = try #require(ihdrDepthAndType(words))
            kinds.insert("type \(header.colourType), \(header.depth) bits")
            let path = folder + "/\(index).png"
            try Data(words).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let expected: Set<String> = ["type 3, 1 bits", "type 3, 8 bits", "type 2, 8 bits"]  // palettes, RGB
        #expect(kinds.isSuperset(of: expected), "\(kinds)")
        #expect(try referenceDecode(paths) == images)

        let printed = PNGEncodingOptions(dotsPerInch: 300)
        for image in [images[0], images[images.count - 1]] {
            #expect(try Self.encodeWords(image, options: printed) == PNG.encode(image, options: printed))
        }
    }

    /// One translucent pixel, or options only libpng serves: nil, and the caller converts.
    @Test func translucentPixelsOrLibpngOptionsAreLeftToTheConversion() throws {
        var translucent = try PNGFlatLevelTests.flat(spots: 10)
        translucent[7, 9] = RGBA(10, 20, 30, 128)
        #expect(try Self.encodeWords(translucent) == nil)
        let opaque = try PNGFlatLevelTests.flat(spots: 10)
        #expect(try Self.encodeWords(opaque) != nil)
        var adaptive = PNGEncodingOptions()
        adaptive.palette.filter = .adaptive
        #expect(try Self.encodeWords(opaque, options: adaptive) == nil)
        var rgba = PNGEncodingOptions()
        rgba.colourMode = .alwaysRGBA
        #expect(try Self.encodeWords(opaque, options: rgba) == nil)
    }
}
