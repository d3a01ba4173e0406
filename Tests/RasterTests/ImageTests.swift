import Testing

@testable import Raster

@Suite struct ImageTests {
    @Test func rawBytesMustMatchTheSize() throws {
        let image = try Image(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(image[0, 0] == RGBA(1, 2, 3, 4))
        #expect(image[1, 0] == RGBA(5, 6, 7, 8))
        #expect(throws: RasterError.pixelCountMismatch(width: 2, height: 2, byteCount: 8)) {
            try Image(width: 2, height: 2, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        }
        #expect(throws: RasterError.invalidSize(width: -1, height: 2)) {
            try Image(width: -1, height: 2, pixels: [])
        }
    }

    @Test func fillWritesEveryPixelInRGBAOrder() {
        let colour = RGBA(10, 20, 30, 40)
        let image = Image(width: 3, height: 2, fill: colour)
        #expect(image.pixels == Array(repeating: [10, 20, 30, 40], count: 6).flatMap { $0 })
        #expect(Image(width: 2, height: 2, fill: .white).pixels == [UInt8](repeating: 255, count: 16))
        #expect(Image(width: 0, height: 5).pixels.isEmpty)
    }

    @Test func subscriptSetsOnePixel() {
        var image = Image(width: 4, height: 3, fill: .white)
        image[3, 2] = RGBA(1, 2, 3, 4)
        #expect(image.pixels[(2 * 4 + 3) * 4..<(2 * 4 + 3) * 4 + 4] == [1, 2, 3, 4])
        #expect(image.pixels.filter { $0 != 255 }.count == 4)
        #expect(image[3, 2].description == "#01020304")
    }

    @Test func packedIsTheMemoryOrderWord() {
        let colour = RGBA(0x11, 0x22, 0x33, 0x44)
        #expect(colour.packed == 0x4433_2211)
        #expect(RGBA(packed: 0x4433_2211) == colour)
    }

    @Test func cropCopiesTheRectangle() throws {
        var image = Image(width: 5, height: 4)
        for y in 0..<4 {
            for x in 0..<5 { image[x, y] = RGBA(UInt8(x), UInt8(y), UInt8(x * y), 255) }
        }
        let tile = try image.cropped(x: 1, y: 2, width: 3, height: 2)
        #expect(tile.width == 3 && tile.height == 2)
        for y in 0..<2 {
            for x in 0..<3 { #expect(tile[x, y] == image[x + 1, y + 2]) }
        }
        #expect(try image.cropped(x: 0, y: 0, width: 5, height: 4) == image)
        #expect(try image.cropped(x: 5, y: 4, width: 0, height: 0).pixels.isEmpty)
    }

    @Test func cropOutsideTheImageIsAnError() {
        let image = Image(width: 5, height: 4)
        for (x, y, w, h) in [(3, 0, 3, 1), (0, 3, 1, 2), (-1, 0, 1, 1), (0, 0, -1, 1), (Int.max, 0, 2, 1)] {
            #expect(throws: RasterError.cropOutOfBounds(x: x, y: y, width: w, height: h, imageWidth: 5, imageHeight: 4))
            {
                try image.cropped(x: x, y: y, width: w, height: h)
            }
        }
    }

    @Test func opacity() {
        var image = Image(width: 3, height: 3, fill: .white)
        #expect(image.isOpaque)
        image[2, 2] = RGBA(255, 255, 255, 254)
        #expect(!image.isOpaque)
    }
}
