import Raster

/// The image format of a job's tiles (the command line's `--format` and `--quality`).
public enum TileImageFormat: Sendable, Hashable {
    /// Lossless, through `PNGTileEncoder`.
    case png
    /// Lossless WebP without a quality, lossy WebP at `quality` (1-100) with one.
    case webp(quality: Int?)
    /// JPEG at `quality` (1-100), composited over white (see `JPEGTileEncoder`).
    case jpeg(quality: Int)

    public static let defaultJPEGQuality = 90
    public static let qualities = 1...100

    /// The format, once its quality is known to be one of `qualities`.
    public func checked() throws(TilesError) -> TileImageFormat {
        switch self {
        case .png, .webp(quality: nil): return self
        case .webp(let quality?), .jpeg(let quality):
            guard TileImageFormat.qualities.contains(quality) else { throw .qualityOutOfRange(quality) }
            return self
        }
    }

    /// The MBTiles `format` value (MBTiles 1.3 spells JPEG `jpg`), also in PMTiles metadata.
    public var metadataFormat: String {
        switch self {
        case .png: return "png"
        case .webp: return "webp"
        case .jpeg: return "jpg"
        }
    }

    /// The extension of tile files in a directory pyramid.
    public var fileExtension: String { metadataFormat }

    public var pmtilesType: PMTilesTileType {
        switch self {
        case .png: return .png
        case .webp: return .webp
        case .jpeg: return .jpeg
        }
    }

    /// What changes the bytes beyond the format, for the `meridian` metadata key that
    /// `--resume` compares; nil for PNG, whose metadata stays as it was before formats.
    var metadataOptions: String? {
        switch self {
        case .png: return nil
        case .webp(let quality): return "quality=\(quality.map(String.init) ?? "lossless")"
        case .jpeg(let quality): return "quality=\(quality)"
        }
    }

    public var encoder: any TileEncoding { encoder(imagery: false) }

    /// The encoder for a map's tiles: PNG tiles of a map with raster layers (`imagery`) are
    /// filtered, which suits photographs and relief (`PNGEncodingOptions.imagery`).
    public func encoder(imagery: Bool) -> any TileEncoding {
        switch self {
        case .png: return PNGTileEncoder(options: imagery ? .imagery : PNGEncodingOptions())
        case .webp(let quality): return WebPTileEncoder(compression: quality.map { .lossy(quality: $0) } ?? .lossless)
        case .jpeg(let quality): return JPEGTileEncoder(quality: quality)
        }
    }
}

/// WebP through libwebp: lossless keeps every pixel; lossy keeps alpha exactly.
public struct WebPTileEncoder: TileEncoding {
    public let compression: WebP.Compression

    public init(compression: WebP.Compression) {
        self.compression = compression
    }

    public func encode(_ tile: Image) throws -> [UInt8] {
        try WebP.encode(tile, compression: compression)
    }
}

/// JPEG through libturbojpeg. JPEG has no alpha, so tiles are composited over white: a map
/// with an opaque `background` has no transparent pixels and is unchanged by it; without one,
/// empty areas come out white.
public struct JPEGTileEncoder: TileEncoding {
    public let quality: Int

    public init(quality: Int) {
        self.quality = quality
    }

    public func encode(_ tile: Image) throws -> [UInt8] {
        try JPEG.encode(tile, quality: quality, background: .white)
    }
}
