import Foundation
import Raster
import SQLite

/// `meridian merge`: joins tile sets (the shards of a job: MBTiles files, PMTiles archives or
/// directories) into one MBTiles file or PMTiles archive.
///
/// Every tile of every input is copied; an image is stored once however many tiles or inputs
/// hold it. The same tile in two inputs must have the same bytes (shards are disjoint; a
/// conflict means the inputs come from different jobs and is an error, not a silent choice).
/// The tiles are joined in a scratch MBTiles file, then copied in key order
/// (`MBTilesSortedCopy`, so the file has the bytes the unsharded job's has) into an
/// `AtomicFile` renamed over the output when complete, or, for a PMTiles output, written into
/// the archive (itself renamed into place when complete).
public enum TileSetMerger {
    public struct Summary: Sendable, Equatable {
        public var inputs = 0
        public var tiles = 0
        public var distinctImages = 0
        public var bytes = 0
    }

    public static func merge(inputs: [String], output: String, stop: StopRequest? = nil) throws -> Summary {
        guard !inputs.isEmpty else { throw TilesError.noInputs }
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        for input in inputs where URL(fileURLWithPath: input).standardizedFileURL == outputURL {
            throw TilesError.outputIsInput(path: output)
        }
        let readers = try inputs.map { try openPyramid($0) }
        let metadata = try TileSetMetadata.merged(try readers.map { try $0.metadata() }, paths: inputs)
        let archive = output.lowercased().hasSuffix(".pmtiles")
        if archive { _ = try PMTilesArchive.header(for: metadata, path: output) }  // a format it can hold

        let file: AtomicFile
        do { file = try AtomicFile(path: output) } catch { throw TilesError.io(path: output, message: error.reason) }
        let scratch = file.temporaryPath + "-unsorted"
        defer {
            // journal_mode OFF writes none, but a failed open may leave them.
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(scratch + suffix) }
        }
        var summary = Summary()
        do {
            let database = try SQLiteDatabase(path: scratch, mode: .create)
            try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
            try database.execute("BEGIN")
            try database.execute(MBTilesSchema.create())
            try MBTilesSchema.writeMetadata(metadata, to: database)
            let images = try MBTilesImages(database: database)
            let insertTile = try database.prepare(
                "INSERT OR IGNORE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?1, ?2, ?3, ?4)")
            let existing = try database.prepare(
                "SELECT tile_id FROM map WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
            for (reader, path) in zip(readers, inputs) {
                try reader.forEachTile { tile, data in
                    if summary.tiles % 1000 == 999, let stop, stop.isRequested {
                        throw TilesError.copyStopped(copied: summary.tiles)
                    }
                    let id = ContentHash(of: data).hex
                    if try images.store(data, id: id) {
                        summary.distinctImages += 1
                        summary.bytes += data.count
                    }
                    try insertTile.bind(1, tile.z)
                    try insertTile.bind(2, tile.x)
                    try insertTile.bind(3, tile.tmsY)
                    try insertTile.bind(4, id)
                    try insertTile.run()
                    if database.changes == 0 {
                        try existing.bind(1, tile.z)
                        try existing.bind(2, tile.x)
                        try existing.bind(3, tile.tmsY)
                        defer { existing.reset() }
                        if try existing.step(), existing.text(0) != id {
                            throw TilesError.incompatibleOutput(
                                path: path,
                                message:
                                    "tile \(tile) differs from the same tile in an earlier input: these files are not parts of one job"
                            )
                        }
                    } else {
                        summary.tiles += 1
                    }
                }
                summary.inputs += 1
            }
            try database.execute("COMMIT")
            if !archive { try MBTilesSortedCopy.write(from: database, to: file.temporaryPath) }
        } catch let error as SQLiteError {
            throw TilesError(error)
        }
        // The connection is closed (it lived in the block above): the files are complete.
        if archive {
            try PMTilesArchive.write(from: try MBTilesReader(path: scratch), metadata: metadata, to: output)
            return summary  // `file`, never committed, is deleted with it
        }
        do { try file.commit() } catch { throw TilesError.io(path: output, message: error.reason) }
        return summary
    }
}
