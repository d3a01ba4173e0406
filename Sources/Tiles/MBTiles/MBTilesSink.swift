import Foundation
import Raster
import Synchronization

/// Writes a job's tiles into an MBTiles 1.3 file (see `MBTilesSchema`).
///
/// Writes go through one connection in write-ahead-log mode, in transactions of up to
/// `batchTiles` tiles or `batchSeconds`: a job killed at any moment loses at most the open
/// transaction, and SQLite rolls it back on the next open, so the file stays valid and
/// a resumed job sees exactly the tiles committed. `finish` commits, folds the log back into the
/// file and returns it to a rollback journal, so a finished file is one self-contained file.
public final class MBTilesSink: TileSink {
    public let path: String
    /// The connection lives inside the lock: only the thread holding it can reach SQLite.
    private let state: Mutex<State>

    private struct State {
        /// nil once finished.
        var connection: Connection?
        var inTransaction = false
        var pendingTiles = 0
        var transactionStart = Date()
        var stats = SinkStatistics()

        mutating func commit() throws(TilesError) {
            guard inTransaction, let connection else { return }
            try connection.database.execute("COMMIT")
            inTransaction = false
            pendingTiles = 0
        }
    }

    private struct Connection {
        let database: SQLiteDatabase
        let images: MBTilesImages
        let insertTile: SQLiteStatement
    }

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
                throw .notResumable(path: path)
            }
            let found = try MBTilesSchema.readMetadata(from: database)
            for key in TileSetMetadata.identityKeys where found.values[key] != metadata.values[key] {
                throw .differentJob(path: path, key: key, found: found.values[key], expected: metadata.values[key])
            }
        }
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        try database.execute("BEGIN")
        try database.execute(MBTilesSchema.create)
        try MBTilesSchema.writeMetadata(metadata, to: database)
        try database.execute("COMMIT")
        let connection = Connection(
            database: database, images: try MBTilesImages(database: database),
            insertTile: try database.prepare(
                "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?1, ?2, ?3, ?4)"))
        var stats = SinkStatistics()
        stats.newImages = 0
        state = Mutex(State(connection: connection, stats: stats))
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> {
        try state.withLock { state throws(TilesError) -> Set<TileID> in
            guard let database = state.connection?.database else {
                throw .io(path: path, message: "the file is closed")
            }
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
    }

    public func write(_ tiles: [EncodedTile]) throws {
        try state.withLock { state throws(TilesError) in
            guard let connection = state.connection else { throw .io(path: path, message: "the file is closed") }
            if !state.inTransaction {
                try connection.database.execute("BEGIN")
                state.inTransaction = true
                state.transactionStart = Date()
            }
            for tile in tiles {
                let id = tile.dataHash.hex
                if try connection.images.store(tile.data, id: id) {
                    state.stats.newImages! += 1
                    state.stats.bytes += tile.data.count
                }
                let insertTile = connection.insertTile
                try insertTile.bind(1, tile.tile.z)
                try insertTile.bind(2, tile.tile.x)
                try insertTile.bind(3, tile.tile.tmsY)
                try insertTile.bind(4, id)
                try insertTile.run()
                state.stats.tiles += 1
                state.pendingTiles += 1
            }
            if state.pendingTiles >= MBTilesSink.batchTiles
                || Date().timeIntervalSince(state.transactionStart) >= MBTilesSink.batchSeconds
            {
                try state.commit()
            }
        }
    }

    public func finish() throws {
        try state.withLock { state throws(TilesError) in
            guard let connection = state.connection else { return }
            try state.commit()
            // Checkpoints the log into the file and deletes it.
            try connection.database.execute("PRAGMA journal_mode = DELETE")
            state.connection = nil
        }
    }

    public var statistics: SinkStatistics {
        state.withLock { $0.stats }
    }
}
