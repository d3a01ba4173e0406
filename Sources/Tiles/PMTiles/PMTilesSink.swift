import Foundation
import Raster

/// Writes a job's tiles into a PMTiles v3 archive.
///
/// An archive's directories need every tile, so it is written whole when the job completes.
/// Until then the tiles go to an MBTiles file beside it, `NAME.pmtiles.partial` (an
/// `MBTilesSink` that this sink's `finish` does not rename): that file is locked by the job,
/// resumable with `--resume`, and what shards write before `merge`. `finish` writes the
/// archive from it through `PMTilesWriter` (renamed into place when complete) and deletes
/// it; a failed or stopped job keeps it for `--resume`, and leaves any earlier archive as it
/// was. Header and JSON metadata come from the job's `TileSetMetadata`.
public final class PMTilesSink: TileSink {
    public let path: String
    private let metadata: TileSetMetadata
    private let staging: MBTilesSink

    public init(path: String, metadata: TileSetMetadata, resume: Bool = false) throws(TilesError) {
        self.path = path
        self.metadata = metadata
        _ = try PMTilesArchive.header(for: metadata, path: path)  // refuse bad metadata before rendering
        do throws(FileError) { try AtomicFile.checkTarget(path) } catch { throw .io(path: path, message: error.reason) }
        staging = try MBTilesSink(target: path, metadata: metadata, resume: resume, delivery: .keep) {
            target throws(TilesError) in
            do throws(PMTilesError) { return try PMTilesReader(path: target) } catch {
                throw .incompatibleOutput(path: target, message: error.problem)
            }
        }
    }

    /// Where the tiles are kept until the archive is written.
    public var stagingPath: String { staging.stagingPath }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> { try staging.storedTiles(in: metatile) }

    public func write(_ tiles: [EncodedTile]) throws { try staging.write(tiles) }

    public func finish() throws {
        try staging.finish()
        do {
            try PMTilesArchive.write(from: try MBTilesReader(path: staging.stagingPath), metadata: metadata, to: path)
        } catch {
            staging.releaseLock()  // the in-progress file stays for --resume
            throw error
        }
        staging.discardStagingFile()
    }

    public func abandon() throws { try staging.abandon() }

    public func discard() throws { try staging.discard() }

    public var statistics: SinkStatistics { staging.statistics }
}

/// Writing a whole tile set as a PMTiles archive.
public enum PMTilesArchive {
    /// Writes every tile of `source` into the archive `path` (renamed into place when
    /// complete), with `metadata` as its header fields and JSON metadata.
    public static func write(from source: any PyramidSource, metadata: TileSetMetadata, to path: String) throws {
        let header = try PMTilesArchive.header(for: metadata, path: path)
        let json = try PMTilesArchive.json(metadata, path: path)
        let writer = try PMTilesWriter(path: path)
        try source.forEachTile { tile, data in try writer.add(tile, data: data) }
        try writer.finish(header: header, metadata: json)
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
