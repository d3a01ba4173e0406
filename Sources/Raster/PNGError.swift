/// Why a PNG could not be read or written. Prints as one line that names the file when
/// there is one: `tiles/3/4/2.png: truncated PNG: unexpected end of data`.
public struct PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file could not be read at all (missing, a directory, no permission).
        case unreadable
        /// No PNG signature: some other kind of file.
        case notPNG
        /// The data ends before the image does.
        case truncated
        /// libpng rejected the data (bad CRC in a critical chunk, bad zlib stream, bad IHDR...).
        case malformed
        /// Dimensions beyond the decoder's limit; refused before any pixel memory is allocated.
        case tooLarge
        case outOfMemory
        /// The image cannot be written as PNG (no pixels, bad resolution).
        case unencodable
        /// The encoded PNG could not be written to its file.
        case unwritable
    }

    public var kind: Kind
    /// What libpng or the system said, or what was wrong.
    public var detail: String
    /// The file concerned, when decoding or writing one.
    public var path: String?

    public init(_ kind: Kind, _ detail: String, path: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.path = path
    }

    public var description: String {
        let what: String
        switch kind {
        case .unreadable: what = "cannot read"
        case .notPNG: what = "not a PNG file"
        case .truncated: what = "truncated PNG"
        case .malformed: what = "malformed PNG"
        case .tooLarge: what = "PNG too large"
        case .outOfMemory: what = "out of memory"
        case .unencodable: what = "cannot encode PNG"
        case .unwritable: what = "cannot write"
        }
        let prefix = path.map { "\($0): " } ?? ""
        return detail.isEmpty ? prefix + what : prefix + what + ": " + detail
    }
}
