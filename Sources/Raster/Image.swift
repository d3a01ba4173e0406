/// An image in memory: straight (non-premultiplied) RGBA, 8 bits per channel, rows top to
/// bottom, `width * 4` bytes per row with no padding. The one image type every module shares:
/// the renderer produces it, tiles are cropped from it, the PNG codec and ImageDiff read it.
public struct Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, row after row.
    public internal(set) var pixels: [UInt8]

    public var bytesPerRow: Int { width * 4 }
    public var pixelCount: Int { width * height }

    /// Wraps existing RGBA bytes; their count must be exactly `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(RasterError) {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).overflow == false,
            (width * height).multipliedReportingOverflow(by: 4).overflow == false
        else { throw .invalidSize(width: width, height: height) }
        guard pixels.count == width * height * 4 else {
            throw .pixelCountMismatch(width: width, height: height, byteCount: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour. Sizes come from code, not users, so a negative size is a
    /// programming error and traps.
    public init(width: Int, height: Int, fill: RGBA = .transparent) {
        precondition(width >= 0 && height >= 0, "negative image size \(width)x\(height)")
        self.width = width
        self.height = height
        let count = width * height
        if fill.r == fill.g && fill.g == fill.b && fill.b == fill.a {
            pixels = [UInt8](repeating: fill.r, count: count * 4)
        } else {
            let word = fill.packed.littleEndian
            pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                for index in 0..<count {
                    raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self)
                }
                initialized = count * 4
            }
        }
    }

    /// The pixel at column `x`, row `y` (0, 0 is the top left). Out of range traps, like an
    /// array index.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = pixels.withUnsafeBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Direct access for code that writes many pixels (drawing, decoding); the count stays fixed.
    public mutating func withUnsafeMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = pixels.withUnsafeMutableBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        withUnsafeBytes { raw in
            var all: UInt8 = 255
            var i = 3
            while i < raw.count {
                all &= raw[i]
                i += 4
            }
            return all == 255
        }
    }

    /// True when every pixel has alpha 0: nothing would show (an empty tile).
    public var isFullyTransparent: Bool {
        withUnsafeBytes { raw in
            var any: UInt8 = 0
            var i = 3
            while i < raw.count {
                any |= raw[i]
                i += 4
            }
            return any == 0
        }
    }
}

/// Width and height in pixels, printed as `256x256`.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

extension Image {
    public var size: ImageSize { ImageSize(width: width, height: height) }
}
