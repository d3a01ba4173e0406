import Raster

extension Image {
    /// Copies `image` onto this one with its top-left corner at (x, y); what falls outside is cut.
    public mutating func paste(_ image: Image, x: Int, y: Int) {
        let columns = max(0, min(image.width, width - x))
        let rows = max(0, min(image.height, height - y))
        guard x >= 0, y >= 0, columns > 0 else { return }
        let target = bytesPerRow
        let source = image.bytesPerRow
        image.withUnsafeBytes { from in
            withUnsafeMutableBytes { to in
                for row in 0..<rows {
                    (to.baseAddress! + (y + row) * target + x * 4)
                        .copyMemory(from: from.baseAddress! + row * source, byteCount: columns * 4)
                }
            }
        }
    }
}
