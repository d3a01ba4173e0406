import Testing

@testable import Raster

/// RGB rows are copied out of 4-byte pixels with a byte shuffle where the processor has one
/// (`rgbrows.h`), four or eight pixels a store that writes 16 bytes for 12 or 32 for 24: every
/// width must give the bytes the word-by-word copy gives, and no byte past the row may change.
@Suite struct PNGRGBRowsTests {
    /// The x86-64 machines this runs on have SSSE3: the shuffle is what the encoder uses.
    @Test func theShuffleIsUsedOnX86() {
        #if arch(x86_64)
            #expect(PNG.shufflesRGB != .words)
        #endif
    }

    /// Widths 0 to 80 (every tail of the sixteen- and four-pixel loops) and a tile's 256, both
    /// word layouts, random bytes: the shuffle's rows equal the words' and the bytes picked
    /// one by one, and the 32 bytes after each row keep their value.
    @Test func shuffledRowsEqualTheWordCopy() {
        var generator = SystemRandomNumberGenerator()
        for width in Array(0...80) + [255, 256, 257] {
            let source = (0..<width * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for argb in [false, true] {
                var expected = [UInt8]()
                for i in 0..<width {
                    let p = source[i * 4..<i * 4 + 4].map { $0 }
                    expected += argb ? [p[2], p[1], p[0]] : [p[0], p[1], p[2]]
                }
                let tail = [UInt8](repeating: 0xA5, count: 32)
                for shuffling in PNG.RGBCopy.available {
                    var target = [UInt8](repeating: 0x5A, count: width * 3) + tail
                    source.withUnsafeBytes { from in
                        target.withUnsafeMutableBytes { to in
                            let start = from.baseAddress ?? UnsafeRawPointer(to.baseAddress!)
                            if argb {
                                PNG.copyRGB(fromARGB: start, to: to.baseAddress!, pixels: width, shuffling: shuffling)
                            } else {
                                PNG.copyRGB(from: start, to: to.baseAddress!, pixels: width, shuffling: shuffling)
                            }
                        }
                    }
                    #expect(Array(target[0..<width * 3]) == expected, "width \(width) argb \(argb) \(shuffling)")
                    #expect(Array(target[(width * 3)...]) == tail, "width \(width) argb \(argb) \(shuffling)")
                }
            }
        }
    }
}
