import Testing

@testable import Raster

/// The census skips blocks of eight pixels of the colour before them with SSE2 on x86-64
/// (`colourruns.h`, sixteen pixels a turn): where it stops and the notes it writes must be
/// those of the 64-bit word compares, for runs ending at every pixel of a turn.
@Suite struct CensusSkipBlocksTests {
    /// Rows of one colour broken by single pixels (one byte off, so that a compare of the
    /// wrong lane or byte would miss it) at random places, scanned from every start: the same
    /// stop and the same notes, and no note written past the last block skipped.
    @Test func skippingMatchesTheWordCompares() {
        var generator = SystemRandomNumberGenerator()
        let colour: UInt32 = 0xFF33_7711
        for width in [0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 40, 48, 64, 100, 256] {
            for round in 0..<40 {
                var row = [UInt32](repeating: colour, count: width)
                // Round 0 leaves the row whole; later rounds break it in one to three places.
                if round > 0 && width > 0 {
                    for _ in 0..<Int.random(in: 1...3, using: &generator) {
                        let at = Int.random(in: 0..<width, using: &generator)
                        let byte = Int.random(in: 0..<4, using: &generator)
                        row[at] ^= 1 << (8 * byte)
                    }
                }
                let index = UInt8.random(in: 0...255, using: &generator)
                let indexBytes = UInt64(index) &* 0x0101_0101_0101_0101
                let pair = UInt64(colour) &* 0x1_0000_0001
                for start in 0...width {
                    // Noting: one note a pixel, and 16 spare bytes to catch a store too far.
                    var words = [UInt8](repeating: 0xEE, count: width + 16)
                    var simd = words
                    row.withUnsafeBytes { pixels in
                        let base = pixels.baseAddress ?? UnsafeRawPointer(bitPattern: 16)!
                        let byWords = words.withUnsafeMutableBufferPointer {
                            ColourCensus.skipBlocksInWords(
                                base, from: start, to: width, of: pair, notes: $0.baseAddress!, mask: Int.max,
                                index: indexBytes)
                        }
                        let bySkip = simd.withUnsafeMutableBufferPointer {
                            ColourCensus.skipBlocks(
                                base, from: start, to: width, of: pair, notes: $0.baseAddress!, mask: Int.max,
                                index: indexBytes)
                        }
                        #expect(bySkip == byWords, "width \(width) start \(start) row \(row)")
                        // Not noting (mask 0): the stop alone matters; the notes land in 16 bytes.
                        var scratch = [UInt8](repeating: 0, count: 16)
                        let unnoted = scratch.withUnsafeMutableBufferPointer {
                            ColourCensus.skipBlocks(
                                base, from: start, to: width, of: pair, notes: $0.baseAddress!, mask: 0,
                                index: indexBytes)
                        }
                        #expect(unnoted == byWords, "width \(width) start \(start), not noting")
                    }
                    #expect(simd == words, "width \(width) start \(start) row \(row)")
                }
            }
        }
    }
}
