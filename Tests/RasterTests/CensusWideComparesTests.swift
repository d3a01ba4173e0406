import Testing

@testable import Raster

/// Past 256 colours the census compares pixels eight at once with AVX2 where the processor has
/// it (`colourruns.h`): the changes and the opacity must be those of the `SIMD8` loop and of a
/// plain count, whatever the row's length, where counting stopped and the rows' stride.
@Suite struct CensusWideComparesTests {
    /// The machines this runs on have AVX2: the wide compares are what the encoder uses.
    @Test func theWideComparesAreUsedOnX86() {
        #if arch(x86_64)
            #expect(ColourCensus.hasAVX2)
        #endif
    }

    /// Images of 300 to 900 colours (so counting stops at different places), runs of one to
    /// eight pixels, some pixels translucent in some images; widths 1 to 70 and 256, rows
    /// packed and in a wider buffer: both ways count what a plain loop counts.
    @Test func wideComparesMatchTheSIMD8LoopAndTheCount() {
        var generator = SystemRandomNumberGenerator()
        for width in Array(1...70) + [256] {
            let height = max(2, 6_000 / width)
            let colours = Int.random(in: 300...900, using: &generator)
            let translucent = Bool.random(using: &generator)
            var pixels: [UInt32] = []
            while pixels.count < width * height {
                let colour = UInt32.random(in: 0..<UInt32(colours), using: &generator) &* 0x9E37_79B1
                let alpha: UInt32 = translucent && Int.random(in: 0..<50, using: &generator) == 0 ? 0x7F : 0xFF
                let run = Int.random(in: 1...8, using: &generator)
                pixels += [UInt32](repeating: colour & 0x00FF_FFFF | alpha << 24, count: run)
            }
            pixels.removeLast(pixels.count - width * height)
            var changes = 0
            for i in 1..<pixels.count where pixels[i] != pixels[i - 1] { changes += 1 }
            let opaque = pixels.allSatisfy { $0 >> 24 == 0xFF }
            // The same rows 4 * (width + 5) bytes apart, the gaps of another colour.
            let stride = width + 5
            var strided = [UInt32](repeating: 0x0102_0304, count: stride * height)
            for y in 0..<height {
                for x in 0..<width { strided[y * stride + x] = pixels[y * width + x] }
            }
            for wide in [false, true] {
                let packed = pixels.withUnsafeBytes {
                    ColourCensus(rows: $0, width: width, height: height, stride: width * 4, wideCompares: wide)
                }
                let apart = strided.withUnsafeBytes {
                    ColourCensus(rows: $0, width: width, height: height, stride: stride * 4, wideCompares: wide)
                }
                for census in [packed, apart] {
                    #expect(!census.fitsPalette)
                    #expect(census.changes == changes, "width \(width) wide \(wide)")
                    #expect(census.opaque == opaque, "width \(width) wide \(wide)")
                }
            }
        }
    }
}
