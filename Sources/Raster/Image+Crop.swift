import Foundation

extension Image {
    /// The `width` x `height` rectangle whose top left is (`x`, `y`), as a new image: how a
    /// tile is cut out of a metatile. One memcpy per row.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(RasterError) -> Image {
        guard x >= 0, y >= 0, width >= 0, height >= 0,
            x <= self.width - width, y <= self.height - height
        else {
            throw .cropOutOfBounds(
                x: x, y: y, width: width, height: height,
                imageWidth: self.width, imageHeight: self.height)
        }
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        let rowBytes = width * 4
        let sourceRowBytes = bytesPerRow
        let bytes = pixels.withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
                guard let destination = buffer.baseAddress, let base = source.baseAddress, rowBytes > 0 else {
                    initialized = 0
                    return
                }
                for row in 0..<height {
                    memcpy(destination + row * rowBytes, base + (y + row) * sourceRowBytes + x * 4, rowBytes)
                }
                initialized = rowBytes * height
            }
        }
        return Image(trustedWidth: width, height: height, pixels: bytes)
    }

    /// For initialisers in this module that have already made `pixels` the right size.
    init(trustedWidth width: Int, height: Int, pixels: [UInt8]) {
        assert(pixels.count == width * height * 4)
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
