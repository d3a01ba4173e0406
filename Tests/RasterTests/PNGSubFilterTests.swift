import Foundation
import TestSupport
import Testing

@testable import Raster

/// Sub-filtered rows compressed by libdeflate (`PNGEncodingOptions.imagery`): what pypng
/// decodes is the source, for every colour type and bit depth, and imagery is no larger than
/// libpng's sub-filtered zlib encoding at the same level.
@Suite struct PNGSubFilterTests {
    static func subFiltered(level: Int) -> PNGEncodingOptions {
        var options = PNGEncodingOptions()
        options.truecolour = PNGCompression(filter: .sub, level: level, strategy: .default, deflater: .libdeflate)
        options.palette = options.truecolour
        return options
    }

    /// Smooth colour ramps with a little noise, as aerial imagery and relief are.
    static func imagery(width: Int, height: Int, alpha: Bool) throws -> Image {
        var random = Xorshift(state: 14)
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int(random.next() % 6)
                let h = sin(Double(x) / 23) * cos(Double(y) / 19) * 60
                bytes += [
                    UInt8(clamping: 110 + Int(h) + noise), UInt8(clamping: 120 + Int(h * 0.7) - noise),
                    UInt8(clamping: 90 - Int(h * 0.6) + noise), alpha ? UInt8(clamping: 128 + x % 128) : 255,
                ]
            }
        }
        return try Image(width: width, height: height, pixels: bytes)
    }

    @Test func everyColourTypeDecodesWithPypng() throws {
        let colours = (0..<600).map {
            RGBA(UInt8($0 & 0xFF), UInt8(($0 * 7) & 0xFF), UInt8($0 >> 8), $0 % 3 == 1 ? 90 : 255)
        }
        let images = [
            try Self.imagery(width: 61, height: 17, alpha: false),  // RGB
            try Self.imagery(width: 61, height: 17, alpha: true),  // RGBA
            try image(width: 37, height: 29, colours: Array(colours.prefix(200))),  // 8-bit palette, tRNS
            try image(width: 5, height: 3, colours: Array(colours.prefix(3))),  // 2-bit palette
            try image(width: 1, height: 4, colours: Array(colours.prefix(4))),  // one pixel a row
        ]
        for (index, source) in images.enumerated() {
            for level in [1, 6, 12] {
                let png = try PNG.encode(source, options: Self.subFiltered(level: level))
                #expect(try referenceDecode(bytes: png) == source, "image \(index), level \(level)")
            }
        }
    }

    @Test func imageryIsNoLargerThanZlibWithTheSameFilter() throws {
        for alpha in [false, true] {
            let source = try Self.imagery(width: 256, height: 256, alpha: alpha)
            var zlib = PNGEncodingOptions()
            zlib.truecolour = PNGCompression(filter: .sub, level: 6, strategy: .default, deflater: .zlib)
            let reference = try PNG.encode(source, options: zlib)
            let imagery = try PNG.encode(source, options: .imagery)
            let unfiltered = try PNG.encode(source)
            #expect(imagery.count <= reference.count, "alpha \(alpha): \(imagery.count) bytes, zlib \(reference.count)")
            // The filter is applied: unfiltered rows of the same pixels are larger.
            #expect(
                imagery.count < unfiltered.count, "alpha \(alpha): \(imagery.count), unfiltered \(unfiltered.count)")
            #expect(try PNG.decode(imagery) == source)
        }
    }
}
