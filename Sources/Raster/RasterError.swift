/// Misuse of an `Image`: sizes that do not fit the pixels or rectangles outside the image.
public enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `width * height * 4` bytes were expected.
    case pixelCountMismatch(width: Int, height: Int, byteCount: Int)
    case invalidSize(width: Int, height: Int)
    /// A crop rectangle that does not lie inside the image.
    case cropOutOfBounds(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int)
    /// A Cairo ARGB32 buffer shorter than its stride and height say, or a stride below width * 4.
    case bufferTooSmall(width: Int, height: Int, stride: Int, byteCount: Int)

    public var description: String {
        switch self {
        case .pixelCountMismatch(let width, let height, let count):
            return "a \(width)x\(height) RGBA image needs \(width * height * 4) bytes, got \(count)"
        case .invalidSize(let width, let height):
            return "invalid image size \(width)x\(height)"
        case .cropOutOfBounds(let x, let y, let width, let height, let imageWidth, let imageHeight):
            return "crop \(width)x\(height) at (\(x), \(y)) lies outside the \(imageWidth)x\(imageHeight) image"
        case .bufferTooSmall(let width, let height, let stride, let count):
            return "a \(width)x\(height) ARGB32 buffer with stride \(stride) needs more than its \(count) bytes"
        }
    }
}
