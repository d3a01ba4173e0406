import ImageDiff
import TestSupport
import Testing

@testable import Raster

@Suite struct JPEGEncodeTests {
    @Test func isCloseToTheOriginalWithDjpeg() throws {
        let map = try goldenMap()
        let jpeg = try JPEG.encode(map, quality: 90)
        #expect(jpeg.prefix(3) == [0xFF, 0xD8, 0xFF])
        let result = lossyComparator.compare(expected: map, actual: try ReferenceImageDecoder.djpeg(jpeg))
        #expect(
            Double(result.differingPixels) <= lossyMaxDifferingFraction * Double(result.totalPixels),
            "\(result.differingPixels) of \(result.totalPixels) pixels differ")
    }

    /// Flat 16x16 blocks (whole JPEG blocks, so no ringing from their edges) of transparent,
    /// half-transparent and opaque pixels come back as the colour blended over the background.
    @Test func compositesOverTheBackground() throws {
        var image = Image(width: 48, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                image[x, y] = RGBA(200, 10, 10, 0)  // invisible: its colour must not show
                image[16 + x, y] = RGBA(0, 0, 0, 128)
                image[32 + x, y] = RGBA(20, 40, 200)
            }
        }
        func centre(_ decoded: Image, block: Int) -> RGBA { decoded[block * 16 + 8, 8] }
        func near(_ a: RGBA, _ b: RGBA) -> Bool {
            abs(Int(a.r) - Int(b.r)) <= 3 && abs(Int(a.g) - Int(b.g)) <= 3 && abs(Int(a.b) - Int(b.b)) <= 3
        }
        let white = try ReferenceImageDecoder.djpeg(try JPEG.encode(image, quality: 95))
        #expect(near(centre(white, block: 0), RGBA(255, 255, 255)), "\(centre(white, block: 0))")
        #expect(near(centre(white, block: 1), RGBA(127, 127, 127)), "\(centre(white, block: 1))")
        #expect(near(centre(white, block: 2), RGBA(20, 40, 200)), "\(centre(white, block: 2))")
        let sea = RGBA(170, 211, 223)
        let onSea = try ReferenceImageDecoder.djpeg(try JPEG.encode(image, quality: 95, background: sea))
        #expect(near(centre(onSea, block: 0), sea), "\(centre(onSea, block: 0))")
        #expect(near(centre(onSea, block: 1), RGBA(85, 105, 111)), "\(centre(onSea, block: 1))")
    }

    @Test func higherQualityIsLargerAndEncodingIsDeterministic() throws {
        let map = try goldenMap()
        let low = try JPEG.encode(map, quality: 30)
        #expect(low.count < (try JPEG.encode(map, quality: 95)).count)
        #expect(try JPEG.encode(map, quality: 30) == low)
    }

    @Test func refusesWhatItCannotEncode() throws {
        #expect(
            throws: ImageEncodingError(format: "JPEG", size: ImageSize(width: 3, height: 0), detail: "it has no pixels")
        ) {
            try JPEG.encode(Image(width: 3, height: 0), quality: 80)
        }
        let error = #expect(throws: ImageEncodingError.self) {
            try JPEG.encode(Image(width: 2, height: 2, fill: .white), quality: 0)
        }
        #expect(error?.description == "cannot encode a 2x2 image as JPEG: quality 0 is outside 1 to 100")
    }
}
