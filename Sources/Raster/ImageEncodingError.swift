/// Why an image could not be encoded as WebP or JPEG: one line naming the format, the image's
/// size and what the library said, e.g. `cannot encode a 0x0 image as WebP: it has no pixels`.
public struct ImageEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// "WebP" or "JPEG".
    public var format: String
    public var size: ImageSize
    public var detail: String

    public init(format: String, size: ImageSize, detail: String) {
        self.format = format
        self.size = size
        self.detail = detail
    }

    public var description: String { "cannot encode a \(size) image as \(format): \(detail)" }
}
