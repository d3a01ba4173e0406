import CPNGCodec
import FileInput

/// The PNG colour types (IHDR byte 25).
public enum PNGColourType: Int, Sendable, CustomStringConvertible {
    case gray = 0
    case rgb = 2
    case palette = 3
    case grayAlpha = 4
    case rgba = 6

    public var description: String {
        switch self {
        case .gray: return "gray"
        case .rgb: return "RGB"
        case .palette: return "palette"
        case .grayAlpha: return "gray+alpha"
        case .rgba: return "RGBA"
        }
    }
}

/// What a PNG's IHDR says, without decoding the pixels.
public struct PNGHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var bitDepth: Int
    public var colourType: PNGColourType
    public var interlaced: Bool
}

/// Reading and writing PNG through libpng. Decoding accepts every colour type and bit depth
/// (interlaced or not) and always yields straight RGBA8; see `encode` for writing.
public enum PNG {
    /// Decoding refuses images with more pixels than this before allocating anything, so a
    /// small file whose header claims a huge image cannot exhaust memory: 100 megapixels are
    /// 400 MB of RGBA (an A1 sheet at 300 dpi is 7016 x 9933, 70 megapixels). docs/limits.md.
    public static let defaultMaxPixels = 100_000_000

    /// Decodes PNG data to straight RGBA8. 16-bit samples are scaled to 8 bits with rounding;
    /// gamma and colour-profile chunks are not applied (values are taken as they are stored).
    public static func decode(_ data: [UInt8], maxPixels: Int = defaultMaxPixels) throws(PNGError) -> Image {
        let result = data.withUnsafeBytes { decodeResult(DecoderSession($0), maxPixels: maxPixels, wantPixels: true) }
        return try result.get().image!
    }

    public static func decode(_ data: UnsafeRawBufferPointer, maxPixels: Int = defaultMaxPixels) throws(PNGError)
        -> Image
    {
        try decodeResult(DecoderSession(data), maxPixels: maxPixels, wantPixels: true).get().image!
    }

    /// Reads and decodes the file at `path`; errors carry the path. Only a regular file is
    /// read (a FIFO or a device is refused), and it is read as libpng asks, up to IEND: memory
    /// holds the pixels, never the whole file.
    public static func decode(contentsOf path: String, maxPixels: Int = defaultMaxPixels) throws(PNGError) -> Image {
        let file: ReadableFile
        do {
            file = try ReadableFile(path: path)
        } catch {
            throw PNGError(.unreadable, error.reason, path: path)
        }
        do {
            return try decodeResult(DecoderSession(file), maxPixels: maxPixels, wantPixels: true).get().image!
        } catch {
            var located = error
            located.path = path
            throw located
        }
    }

    /// The header of PNG data (signature and IHDR are checked, pixels are not decoded).
    public static func header(of data: [UInt8]) throws(PNGError) -> PNGHeader {
        try data.withUnsafeBytes { decodeResult(DecoderSession($0), maxPixels: Int.max, wantPixels: false) }.get()
            .header
    }

    private static func decodeResult(
        _ session: DecoderSession?, maxPixels: Int,
        wantPixels: Bool
    ) -> Result<(header: PNGHeader, image: Image?), PNGError> {
        guard let session else {
            return .failure(PNGError(.outOfMemory, "cannot start libpng"))
        }
        let status = mpng_decoder_read_header(session.handle)
        guard status == MPNG_OK else { return .failure(session.error(status)) }
        let width = Int(mpng_decoder_width(session.handle))
        let height = Int(mpng_decoder_height(session.handle))
        guard let colourType = PNGColourType(rawValue: Int(mpng_decoder_color_type(session.handle))) else {
            return .failure(PNGError(.malformed, "unknown colour type"))
        }
        let header = PNGHeader(
            width: width, height: height,
            bitDepth: Int(mpng_decoder_bit_depth(session.handle)),
            colourType: colourType,
            interlaced: mpng_decoder_interlaced(session.handle) != 0)
        guard wantPixels else { return .success((header, nil)) }
        guard width * height <= maxPixels else {
            let limit = maxPixels % 1_000_000 == 0 ? "\(maxPixels / 1_000_000) megapixels" : "\(maxPixels) pixels"
            return .failure(PNGError(.tooLarge, "\(width)x\(height) is more than the limit of \(limit)"))
        }
        var readStatus = MPNG_OK
        let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            readStatus = mpng_decoder_read_rgba8(session.handle, buffer.baseAddress, width * 4)
            // On failure the bytes are partly unwritten: report none initialised.
            initialized = readStatus == MPNG_OK ? width * height * 4 : 0
        }
        guard readStatus == MPNG_OK else { return .failure(session.error(readStatus)) }
        return .success((header, Image(trustedWidth: width, height: height, pixels: bytes)))
    }
}

/// Owns one libpng read struct (through the C shim) for the length of one decode.
private final class DecoderSession {
    let handle: OpaquePointer
    /// The file read from, kept open as long as the session reads it.
    private let file: ReadableFile?

    // The C side checks each dimension against this; the pixel-count limit is checked in Swift.
    private static let maxSide: UInt32 = 1 << 24

    /// `data` must outlive the session.
    init?(_ data: UnsafeRawBufferPointer) {
        let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let handle = mpng_decoder_create(base, data.count, Self.maxSide, Self.maxSide) else { return nil }
        self.handle = handle
        self.file = nil
    }

    init?(_ file: ReadableFile) {
        guard let handle = mpng_decoder_create_fd(file.descriptor, Self.maxSide, Self.maxSide) else { return nil }
        self.handle = handle
        self.file = file
    }

    deinit { mpng_decoder_destroy(handle) }

    func error(_ status: mpng_status) -> PNGError {
        let message = String(cString: mpng_decoder_message(handle))
        switch status {
        case MPNG_NOT_PNG: return PNGError(.notPNG, message)
        case MPNG_TRUNCATED: return PNGError(.truncated, message)
        case MPNG_TOO_LARGE: return PNGError(.tooLarge, message)
        case MPNG_NO_MEMORY: return PNGError(.outOfMemory, message)
        case MPNG_IO_ERROR: return PNGError(.unreadable, message)
        default: return PNGError(.malformed, message)
        }
    }
}
