import ImageDiff
import TestSupport
import Testing

@testable import Raster

/// A rendered map (a golden image: flat fills, anti-aliased lines and text), opaque. One with
/// coastlines and several fills: the New York grid golden is now so flat (a grid in 17 ink
/// levels over one fill) that lossless WebP beats lossy on it.
func goldenMap() throws -> Image {
    try PNG.decode(FileIO.readBytes(atPath: Repository.fixture("golden/grid-latlong-z12.png")))
}

/// Pseudo-random colours with every kind of alpha, including fully transparent pixels whose
/// RGB is not zero (a lossless encoder must keep those too).
func translucentNoise(width: Int = 61, height: Int = 47) throws -> Image {
    var random = Xorshift(state: 0x5EED)
    var bytes: [UInt8] = []
    for index in 0..<width * height {
        let word = random.next()
        let alpha: UInt8 = index % 5 == 0 ? 0 : (index % 5 == 1 ? 255 : UInt8(truncatingIfNeeded: word >> 24))
        bytes += [
            UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
            UInt8(truncatingIfNeeded: word >> 16), alpha,
        ]
    }
    return try Image(width: width, height: height, pixels: bytes)
}

/// Lossy tolerance, for WebP and JPEG alike: with ImageDiff's comparator at threshold 0.15, at
/// most 0.5% of the pixels of the golden map decoded by dwebp/djpeg differ; swapped channels,
/// shifted rows or a wrong background fail it by far.
let lossyComparator = ImageComparator(threshold: 0.15)
let lossyMaxDifferingFraction = 0.005

@Suite struct WebPEncodeTests {
    @Test func losslessDecodesToTheSamePixelsWithDwebp() throws {
        for original in [try goldenMap(), try translucentNoise()] {
            let webp = try WebP.encode(original, compression: .lossless)
            #expect(Array(webp.prefix(4)) == Array("RIFF".utf8) && Array(webp[8..<12]) == Array("WEBP".utf8))
            #expect(try ReferenceImageDecoder.dwebp(webp) == original)
        }
    }

    @Test func lossyIsCloseToTheOriginal() throws {
        let map = try goldenMap()
        let webp = try WebP.encode(map, compression: .lossy(quality: 80))
        let result = lossyComparator.compare(expected: map, actual: try ReferenceImageDecoder.dwebp(webp))
        #expect(
            Double(result.differingPixels) <= lossyMaxDifferingFraction * Double(result.totalPixels),
            "\(result.differingPixels) of \(result.totalPixels) pixels differ")
        // Lossy is what it is for: smaller than lossless on a map.
        #expect(webp.count < (try WebP.encode(map, compression: .lossless)).count)
    }

    /// Lossy WebP compresses colour, not alpha: the alpha plane comes back exactly.
    @Test func lossyKeepsAlphaExactly() throws {
        let original = try translucentNoise()
        let decoded = try ReferenceImageDecoder.dwebp(try WebP.encode(original, compression: .lossy(quality: 75)))
        #expect(decoded.size == original.size)
        let alphas = { (image: Image) in stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] } }
        #expect(alphas(decoded) == alphas(original))
    }

    @Test func higherQualityIsLargerAndEncodingIsDeterministic() throws {
        let map = try goldenMap()
        let low = try WebP.encode(map, compression: .lossy(quality: 30))
        let high = try WebP.encode(map, compression: .lossy(quality: 95))
        #expect(low.count < high.count)
        #expect(try WebP.encode(map, compression: .lossy(quality: 30)) == low)
        #expect(try WebP.encode(map, compression: .lossless) == (try WebP.encode(map, compression: .lossless)))
    }

    @Test func refusesWhatItCannotEncode() throws {
        let empty = Image(width: 0, height: 3)
        #expect(throws: ImageEncodingError(format: "WebP", size: empty.size, detail: "it has no pixels")) {
            try WebP.encode(empty, compression: .lossless)
        }
        let small = Image(width: 2, height: 2, fill: .white)
        #expect(throws: ImageEncodingError.self) { try WebP.encode(small, compression: .lossy(quality: 101)) }
        let wide = Image(width: WebP.maxSide + 1, height: 1, fill: .white)
        let error = #expect(throws: ImageEncodingError.self) { try WebP.encode(wide, compression: .lossless) }
        #expect(
            error?.description == "cannot encode a 16384x1 image as WebP: WebP images are at most 16383 pixels a side")
    }
}
