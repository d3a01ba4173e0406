import Foundation

/// Writes a job's tiles into a PMTiles v3 archive through `PMTilesWriter`.
///
/// The archive is written whole when the job finishes (its directories need every tile), so
/// until then the file does not change; a failed job leaves no partial archive, and there is
/// nothing for `--resume` to continue. Header and JSON metadata come from the job's
/// `TileSetMetadata`: tile type from `format`, zooms, bounds and centre from theirs.
public final class PMTilesSink: TileSink, @unchecked Sendable {
    public let path: String
    private let metadata: TileSetMetadata
    // The writer and counters are guarded by `lock` (the progress display reads statistics).
    private let lock = NSLock()
    private let writer: PMTilesWriter
    private var stats = SinkStatistics()

    public init(path: String, metadata: TileSetMetadata) throws(TilesError) {
        self.path = path
        self.metadata = metadata
        _ = try PMTilesSink.header(for: metadata)  // refuse bad metadata before rendering
        writer = try PMTilesWriter(path: path)
        stats.newImages = 0
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> { [] }

    public func write(_ tiles: [EncodedTile]) throws {
        lock.lock()
        defer { lock.unlock() }
        for tile in tiles {
            if try writer.add(tile.tile, data: tile.data, hash: tile.dataHash) {
                stats.newImages! += 1
                stats.bytes += tile.data.count
            }
            stats.tiles += 1
        }
    }

    public func finish() throws {
        lock.lock()
        defer { lock.unlock() }
        try writer.finish(header: PMTilesSink.header(for: metadata), metadata: PMTilesSink.json(metadata))
    }

    public func abandon() throws {
        lock.lock()
        defer { lock.unlock() }
        writer.abandon()
    }

    public var statistics: SinkStatistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    /// The header fields the metadata decides.
    static func header(for metadata: TileSetMetadata) throws(TilesError) -> PMTilesHeader {
        let values = metadata.values
        var header = PMTilesHeader()
        switch values["format"] {
        case "png": header.tileType = .png
        case "jpg": header.tileType = .jpeg
        case "webp": header.tileType = .webp
        default: throw .invalidArgument("PMTiles: no tile type for format '\(values["format"] ?? "")'")
        }
        guard let minZoom = values["minzoom"].flatMap(UInt8.init), let maxZoom = values["maxzoom"].flatMap(UInt8.init),
            let bounds = metadata.bounds
        else { throw .invalidArgument("PMTiles: the tile set has no zoom range or bounds") }
        header.minZoom = minZoom
        header.maxZoom = maxZoom
        header.minLongitudeE7 = PMTilesHeader.e7(bounds[0])
        header.minLatitudeE7 = PMTilesHeader.e7(bounds[1])
        header.maxLongitudeE7 = PMTilesHeader.e7(bounds[2])
        header.maxLatitudeE7 = PMTilesHeader.e7(bounds[3])
        let center = (values["center"] ?? "").split(separator: ",").compactMap { Double($0) }
        if center.count == 3 {
            header.centerLongitudeE7 = PMTilesHeader.e7(center[0])
            header.centerLatitudeE7 = PMTilesHeader.e7(center[1])
            header.centerZoom = UInt8(clamping: Int(center[2]))
        } else {
            header.centerLongitudeE7 = PMTilesHeader.e7((bounds[0] + bounds[2]) / 2)
            header.centerLatitudeE7 = PMTilesHeader.e7((bounds[1] + bounds[3]) / 2)
            header.centerZoom = minZoom
        }
        return header
    }

    /// The metadata as a JSON object of strings (what the PMTiles spec asks of `name`,
    /// `attribution`, `type` and the like), keys sorted so the bytes are always the same.
    static func json(_ metadata: TileSetMetadata) throws(TilesError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(metadata.values)) } catch {
            throw .invalidArgument("PMTiles: the metadata cannot be written as JSON (\(error))")
        }
    }
}
