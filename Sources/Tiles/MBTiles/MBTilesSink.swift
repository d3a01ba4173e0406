import Foundation
import Raster

/// Writes a job's tiles into an MBTiles 1.3 file (see `MBTilesSchema`).
///
/// Writes go through one connection in write-ahead-log mode, in transactions of up to
/// `batchTiles` tiles or `batchSeconds`: a job killed at any moment loses at most the open
/// transaction, and SQLite rolls it back on the next open, so the file stays valid and
/// `--resume` sees exactly the tiles committed. `finish` commits, folds the log back into the
/// file and returns it to a rollback journal, so a finished file is one self-contained file.
public final class MBTilesSink: TileSink, @unchecked Sendable {
    public let path: String
    // The connection and counters are guarded by `lock`.
    private let lock = NSLock()
    private var database: SQLiteDatabase?
    private var images: MBTilesImages?
    private var insertTile: SQLiteStatement?
    private var inTransaction = false
    private var pendingTiles = 0
    private var transactionStart = Date()
    private var stats = SinkStatistics()

    static let batchTiles = 2000
    static let batchSeconds = 2.0

    /// Opens `path` for a job. Without `resume` an existing file (and its journals) is replaced;
    /// with it, the file must have been made by the same job options (its metadata agrees).
    public init(path: String, metadata: TileSetMetadata, resume: Bool) throws(TilesError) {
        self.path = path
        // The file is filled in place (so a killed job can resume it), not through an
        // AtomicFile, but its target is held to the same rule: a regular file or nothing.
        do { try AtomicFile.checkTarget(path) } catch { throw .io(path: path, message: error.reason) }
        let exists = FileManager.default.fileExists(atPath: path)
        if !resume || !exists {
            for suffix in ["", "-journal", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                do { try FileManager.default.removeItem(atPath: path + suffix) } catch {
                    throw .io(path: path + suffix, message: "cannot replace it (\(error.localizedDescription))")
                }
            }
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw .io(path: path, message: "the folder \(directory) does not exist")
        }
        let database = try SQLiteDatabase(path: path, mode: .create)
        // A job killed between creating the file and committing its schema leaves an empty
        // database: nothing was stored yet, so a resumed job simply starts it over.
        let tables = exists ? try database.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0 : 0
        let started = tables > 0
        if resume && started {
            guard try database.hasTable("map"), try database.hasTable("images"), try database.hasTable("metadata")
            else {
                throw .incompatibleOutput(
                    path: path,
                    message: "is not an MBTiles file written by meridian tiles, so --resume cannot continue it")
            }
            let found = try MBTilesSchema.readMetadata(from: database)
            for key in TileSetMetadata.identityKeys where found.values[key] != metadata.values[key] {
                throw .incompatibleOutput(
                    path: path,
                    message:
                        "was made by a different job (\(key) is '\(found.values[key] ?? "missing")', this job's is '\(metadata.values[key] ?? "missing")'): --resume needs the same --zoom, --bbox, --tile-size, --scale and --buffer"
                )
            }
        }
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        try database.execute("BEGIN")
        try database.execute(MBTilesSchema.create)
        try MBTilesSchema.writeMetadata(metadata, to: database)
        try database.execute("COMMIT")
        images = try MBTilesImages(database: database)
        insertTile = try database.prepare(
            "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?1, ?2, ?3, ?4)")
        stats.newImages = 0
        self.database = database
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> {
        lock.lock()
        defer { lock.unlock() }
        guard let database else { throw TilesError.io(path: path, message: "the file is closed") }
        let query = try database.prepare(
            """
            SELECT tile_column, tile_row FROM map WHERE zoom_level = ?1
            AND tile_column BETWEEN ?2 AND ?3 AND tile_row BETWEEN ?4 AND ?5
            """)
        let lastRow = TileID(z: metatile.z, x: metatile.x, y: metatile.y + metatile.rows - 1)
        try query.bind(1, metatile.z)
        try query.bind(2, metatile.x)
        try query.bind(3, metatile.x + metatile.columns - 1)
        try query.bind(4, lastRow.tmsY)
        try query.bind(5, TileID(z: metatile.z, x: metatile.x, y: metatile.y).tmsY)
        var found = Set<TileID>()
        while try query.step() {
            found.insert(TileID(z: metatile.z, x: query.int(0), tmsY: query.int(1)))
        }
        return found
    }

    public func write(_ tiles: [EncodedTile]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let database, let images, let insertTile else {
            throw TilesError.io(path: path, message: "the file is closed")
        }
        if !inTransaction {
            try database.execute("BEGIN")
            inTransaction = true
            transactionStart = Date()
        }
        for tile in tiles {
            let id = tile.dataHash.hex
            if try images.store(tile.data, id: id) {
                stats.newImages! += 1
                stats.bytes += tile.data.count
            }
            try insertTile.bind(1, tile.tile.z)
            try insertTile.bind(2, tile.tile.x)
            try insertTile.bind(3, tile.tile.tmsY)
            try insertTile.bind(4, id)
            try insertTile.run()
            stats.tiles += 1
            pendingTiles += 1
        }
        if pendingTiles >= MBTilesSink.batchTiles
            || Date().timeIntervalSince(transactionStart) >= MBTilesSink.batchSeconds
        {
            try commit()
        }
    }

    private func commit() throws(TilesError) {
        guard inTransaction, let database else { return }
        try database.execute("COMMIT")
        inTransaction = false
        pendingTiles = 0
    }

    public func finish() throws {
        lock.lock()
        defer { lock.unlock() }
        guard let database else { return }
        try commit()
        // Checkpoints the log into the file and deletes it.
        try database.execute("PRAGMA journal_mode = DELETE")
        images = nil
        insertTile = nil
        self.database = nil
    }

    public var statistics: SinkStatistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }
}
