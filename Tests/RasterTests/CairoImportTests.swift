import Testing

@testable import Raster

/// Cairo ARGB32: native-endian words 0xAARRGGBB with premultiplied colour.
private func cairoWord(a: UInt32, r: UInt32, g: UInt32, b: UInt32) -> UInt32 {
    a << 24 | r << 16 | g << 8 | b
}

@Suite struct CairoImportTests {
    /// Every (alpha, premultiplied value) pair against the definition, computed with
    /// floating point: round(c * 255 / a).
    @Test func unpremultipliesEveryValueWithRounding() throws {
        var words: [UInt32] = []
        var expected: [UInt8] = []
        for a in 0...255 {
            for c in 0...a {
                words.append(cairoWord(a: UInt32(a), r: UInt32(c), g: UInt32(a - c), b: UInt32(c / 2)))
                if a == 0 {
                    expected += [0, 0, 0, 0]
                } else {
                    func straight(_ v: Int) -> UInt8 { UInt8((Double(v) * 255 / Double(a)).rounded()) }
                    expected += [straight(c), straight(a - c), straight(c / 2), UInt8(a)]
                }
            }
        }
        let image = try words.withUnsafeBytes { raw in
            try Image(cairoARGB32: raw, width: words.count, height: 1, stride: words.count * 4)
        }
        #expect(image.pixels == expected)
    }

    @Test func honoursStridePaddingAndRowOrder() throws {
        // 3 x 2 pixels, stride of 5 words: the last 2 words of each row are padding.
        let stride = 5
        var words = [UInt32](repeating: 0xDEAD_BEEF, count: stride * 2)
        words[0] = cairoWord(a: 255, r: 1, g: 2, b: 3)
        words[1] = cairoWord(a: 255, r: 4, g: 5, b: 6)
        words[2] = cairoWord(a: 128, r: 64, g: 0, b: 128)
        words[stride] = cairoWord(a: 0, r: 0, g: 0, b: 0)
        words[stride + 1] = cairoWord(a: 255, r: 255, g: 255, b: 255)
        words[stride + 2] = cairoWord(a: 51, r: 51, g: 17, b: 0)
        let image = try words.withUnsafeBytes { raw in
            try Image(cairoARGB32: raw, width: 3, height: 2, stride: stride * 4)
        }
        #expect(
            image.pixels == [
                1, 2, 3, 255, 4, 5, 6, 255, 128, 0, 255, 128,
                0, 0, 0, 0, 255, 255, 255, 255, 255, 85, 0, 51,
            ])
    }

    @Test func rejectsShortBuffersAndSmallStrides() {
        let words = [UInt32](repeating: 0, count: 7)
        words.withUnsafeBytes { raw in
            #expect(throws: RasterError.bufferTooSmall(width: 4, height: 2, stride: 16, byteCount: 28)) {
                try Image(cairoARGB32: raw, width: 4, height: 2, stride: 16)
            }
            #expect(throws: RasterError.bufferTooSmall(width: 4, height: 1, stride: 12, byteCount: 28)) {
                try Image(cairoARGB32: raw, width: 4, height: 1, stride: 12)
            }
        }
    }

    /// Invalid premultiplied data (colour above alpha) clamps rather than wrapping.
    @Test func clampsColourAboveAlpha() throws {
        let words = [cairoWord(a: 10, r: 200, g: 10, b: 0)]
        let image = try words.withUnsafeBytes { try Image(cairoARGB32: $0, width: 1, height: 1, stride: 4) }
        #expect(image[0, 0] == RGBA(255, 255, 0, 10))
    }
}
