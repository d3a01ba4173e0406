/// How the directories, the metadata or the tiles of an archive are compressed.
public enum PMTilesCompression: UInt8, Sendable {
    case unknown = 0
    case none = 1
    case gzip = 2
    case brotli = 3
    case zstd = 4
}

/// What the tiles are.
public enum PMTilesTileType: UInt8, Sendable {
    case unknown = 0
    case mvt = 1
    case png = 2
    case jpeg = 3
    case webp = 4
    case avif = 5
}

/// The fixed 127-byte header that starts every PMTiles v3 archive: where each section lies,
/// counts, compression, tile type, and the tile set's zooms, bounds and centre (PMTiles v3,
/// "Header"). Integers are little-endian; positions are degrees x 10^7.
public struct PMTilesHeader: Sendable, Equatable {
    public static let size = 127
    /// "PMTiles" followed by the version byte 3.
    static let magic: [UInt8] = Array("PMTiles".utf8) + [3]

    public var rootOffset: UInt64 = 0
    public var rootLength: UInt64 = 0
    public var metadataOffset: UInt64 = 0
    public var metadataLength: UInt64 = 0
    public var leafDirectoriesOffset: UInt64 = 0
    public var leafDirectoriesLength: UInt64 = 0
    public var tileDataOffset: UInt64 = 0
    public var tileDataLength: UInt64 = 0
    /// Tiles, counting each tile of a run (0 when unknown).
    public var addressedTiles: UInt64 = 0
    /// Directory entries that point at tile data (0 when unknown).
    public var tileEntries: UInt64 = 0
    /// Distinct tile contents stored (0 when unknown).
    public var tileContents: UInt64 = 0
    /// Tile data ordered by tile ID.
    public var clustered = false
    public var internalCompression = PMTilesCompression.gzip
    public var tileCompression = PMTilesCompression.none
    public var tileType = PMTilesTileType.unknown
    public var minZoom: UInt8 = 0
    public var maxZoom: UInt8 = 0
    public var minLongitudeE7: Int32 = 0
    public var minLatitudeE7: Int32 = 0
    public var maxLongitudeE7: Int32 = 0
    public var maxLatitudeE7: Int32 = 0
    public var centerZoom: UInt8 = 0
    public var centerLongitudeE7: Int32 = 0
    public var centerLatitudeE7: Int32 = 0

    public init() {}

    /// Degrees as the header stores them, rounded to the nearest 10^-7.
    static func e7(_ degrees: Double) -> Int32 { Int32((degrees * 10_000_000).rounded()) }

    public var bytes: [UInt8] {
        var out = PMTilesHeader.magic
        out.reserveCapacity(PMTilesHeader.size)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        for value in [
            rootOffset, rootLength, metadataOffset, metadataLength, leafDirectoriesOffset, leafDirectoriesLength,
            tileDataOffset, tileDataLength, addressedTiles, tileEntries, tileContents,
        ] { put(value) }
        out += [clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue]
        out += [minZoom, maxZoom]
        for value in [minLongitudeE7, minLatitudeE7, maxLongitudeE7, maxLatitudeE7] { put(value) }
        out.append(centerZoom)
        put(centerLongitudeE7)
        put(centerLatitudeE7)
        return out
    }

    /// Reads the first 127 bytes of `path`. Unknown compression or tile type values are
    /// refused here, so the rest of the reader deals with known ones only.
    init(parsing bytes: [UInt8], path: String) throws(PMTilesError) {
        guard bytes.count >= PMTilesHeader.size else {
            throw PMTilesError(
                path: path, problem: "is \(bytes.count) bytes long, shorter than the 127-byte PMTiles header")
        }
        guard bytes.starts(with: PMTilesHeader.magic.prefix(7)) else {
            throw PMTilesError(path: path, offset: 0, problem: "not a PMTiles archive (no \"PMTiles\" magic)")
        }
        guard bytes[7] == 3 else {
            throw PMTilesError(path: path, offset: 7, problem: "PMTiles version \(bytes[7]) is not supported (only 3)")
        }
        func u64(_ at: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        func i32(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) })
        }
        func compression(_ at: Int, _ what: String) throws(PMTilesError) -> PMTilesCompression {
            guard let value = PMTilesCompression(rawValue: bytes[at]) else {
                throw PMTilesError(path: path, offset: UInt64(at), problem: "unknown \(what) compression \(bytes[at])")
            }
            return value
        }
        rootOffset = u64(8)
        rootLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoriesOffset = u64(40)
        leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTiles = u64(72)
        tileEntries = u64(80)
        tileContents = u64(88)
        clustered = bytes[96] == 1
        internalCompression = try compression(97, "internal")
        tileCompression = try compression(98, "tile")
        guard let type = PMTilesTileType(rawValue: bytes[99]) else {
            throw PMTilesError(path: path, offset: 99, problem: "unknown tile type \(bytes[99])")
        }
        tileType = type
        minZoom = bytes[100]
        maxZoom = bytes[101]
        minLongitudeE7 = i32(102)
        minLatitudeE7 = i32(106)
        maxLongitudeE7 = i32(110)
        maxLatitudeE7 = i32(114)
        centerZoom = bytes[118]
        centerLongitudeE7 = i32(119)
        centerLatitudeE7 = i32(123)
    }
}
