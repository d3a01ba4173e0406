import Foundation
import Synchronization

/// Writes a job's tiles into a PMTiles v3 archive through `PMTilesWriter`.
///
/// The archive is written whole when the job finishes (its directories need every tile), so
/// until then the file does not change; a failed job leaves no partial archive, and there is
/// nothing for `--resume` to continue. Header and JSON metadata come from the job's
/// `TileSetMetadata`: tile type from `format`, zooms, bounds and centre from theirs.
public final class PMTilesSink: TileSink {
    public let path: String
    private let metadata: TileSetMetadata
    /// The writer and the counters (which the progress display reads) live inside the lock.
    private let state: Mutex<State>

    private struct State {
        var writer: PMTilesWriter
        var stats = SinkStatistics()
    }

    public init(path: String, metadata: TileSetMetadata) throws(TilesError) {
        self.path = path
        self.metadata = metadata
        _ = try PMTilesSink.header(for: metadata, path: path)  // refuse bad metadata before rendering
        var stats = SinkStatistics()
        stats.newImages = 0
        state = Mutex(State(writer: try PMTilesWriter(path: path), stats: stats))
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> { [] }

    public func write(_ tiles: [EncodedTile]) throws {
        try state.withLock { state throws(TilesError) in
            for tile in tiles {
                if try state.writer.add(tile.tile, data: tile.data, hash: tile.dataHash) {
                    state.stats.newImages! += 1
                    state.stats.bytes += tile.data.count
                }
                state.stats.tiles += 1
            }
        }
    }

    public func finish() throws {
        let header = try PMTilesSink.header(for: metadata, path: path)
        let json = try PMTilesSink.json(metadata, path: path)
        try state.withLock { state throws(TilesError) in try state.writer.finish(header: header, metadata: json) }
    }

    public func abandon() throws {
        state.withLock { $0.writer.abandon() }
    }

    public var statistics: SinkStatistics {
        state.withLock { $0.stats }
    }

    /// The header fields the metadata decides.
    static func header(for metadata: TileSetMetadata, path: String) throws(TilesError) -> PMTilesHeader {
        let values = metadata.values
        var header = PMTilesHeader()
        switch values["format"] {
        case "png": header.tileType = .png
        case "jpg": header.tileType = .jpeg
        case "webp": header.tileType = .webp
        default: throw .unsupportedTileFormat(path: path, format: values["format"] ?? "")
        }
        guard let minZoom = values["minzoom"].flatMap(UInt8.init) else {
            throw .missingMetadata(path: path, key: "minzoom")
        }
        guard let maxZoom = values["maxzoom"].flatMap(UInt8.init) else {
            throw .missingMetadata(path: path, key: "maxzoom")
        }
        guard let bounds = metadata.bounds else { throw .missingMetadata(path: path, key: "bounds") }
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
    static func json(_ metadata: TileSetMetadata, path: String) throws(TilesError) -> [UInt8] {
        do {
            return Array(
                try JSONSerialization.data(
                    withJSONObject: metadata.values, options: [.sortedKeys, .withoutEscapingSlashes]))
        } catch {
            throw .io(path: path, message: "the metadata cannot be written as JSON (\(error))")
        }
    }
}
