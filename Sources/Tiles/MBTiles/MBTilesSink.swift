import Foundation
import Raster
import SQLite
import Synchronization

/// Writes a job's tiles into an MBTiles 1.3 file (see `MBTilesSchema`).
///
/// The tiles go to an in-progress file beside the target, `NAME.partial`, which the job holds
/// locked (`OutputLock`) from start to end: a second job writing the same output is refused
/// at once. `finish` renames it over the target, so the target is always either the old
/// complete file or the new complete one, never a part. A failed or stopped job leaves the
/// in-progress file, and `--resume` continues it (or, when there is none, starts from the
/// complete target, so a finished job resumed does nothing).
///
/// Writes go through one connection in write-ahead-log mode, in transactions of up to
/// `batchTiles` tiles or `batchSeconds`: a job killed at any moment loses at most the open
/// transaction, and SQLite rolls it back on the next open, so the file stays valid and
/// a resumed job sees exactly the tiles committed. `finish` commits, folds the log back into
/// the file and returns it to a rollback journal, so a finished file is one self-contained file.
public final class MBTilesSink: TileSink {
    /// The target, where the finished file goes.
    public let path: String
    /// Where the file is written until the job is complete.
    public let stagingPath: String
    private let delivery: Delivery
    private let lock: OutputLock
    /// The connection lives inside the lock: only the thread holding it can reach SQLite.
    private let state: Mutex<State>

    /// What `finish` does with the completed in-progress file.
    enum Delivery {
        /// Renames it over the target.
        case rename
        /// Leaves it for the owner (`PMTilesSink` turns it into an archive).
        case keep
    }

    private struct State {
        /// nil once closed.
        var connection: Connection?
        var inTransaction = false
        var pendingTiles = 0
        var transactionStart = Date()
        var stats = SinkStatistics()

        mutating func commit() throws(TilesError) {
            guard inTransaction, let connection else { return }
            try sqlite(try connection.database.execute("COMMIT"))
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

    /// The in-progress file of a job writing `target`.
    public static func stagingPath(for target: String) -> String { target + ".partial" }

    /// SQLite's companions of a database file: rollback journal, write-ahead log, its index;
    /// and the finished file's sorted copy (`MBTilesSortedCopy`) while it is written.
    static let companionSuffixes = ["-journal", "-wal", "-shm", sortedSuffix]
    static let sortedSuffix = "-sorted"

    /// Opens `path` for a job. Without `resume` any in-progress file is started over (the
    /// target stays as it is until the job completes); with it, the in-progress file (or the
    /// target, when there is none) must have been made by the same job options.
    public convenience init(path: String, metadata: TileSetMetadata, resume: Bool) throws(TilesError) {
        try self.init(target: path, metadata: metadata, resume: resume, delivery: .rename) {
            target throws(TilesError) in
            try MBTilesReader(path: target)
        }
    }

    /// `openTarget` reads the complete target, to start a resumed job from it.
    init(
        target: String, metadata: TileSetMetadata, resume: Bool, delivery: Delivery,
        openTarget: (String) throws(TilesError) -> any PyramidSource
    ) throws(TilesError) {
        path = target
        let stagingPath = MBTilesSink.stagingPath(for: target)
        self.stagingPath = stagingPath
        self.delivery = delivery
        // Every name the job writes must be a regular file or nothing: a directory called
        // NAME.mbtiles (or NAME.mbtiles.partial-journal) is refused, never replaced.
        for name in [target, stagingPath] + MBTilesSink.companionSuffixes.map({ stagingPath + $0 }) {
            do { try AtomicFile.checkTarget(name) } catch { throw .io(path: name, message: error.reason) }
        }
        let folder = (target as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw .io(path: target, message: "the folder \(folder) does not exist")
        }
        let existed = FileManager.default.fileExists(atPath: stagingPath)
        lock = try OutputLock(path: stagingPath, output: target)
        var stats = SinkStatistics()
        stats.newImages = 0
        let opened: (connection: Connection, seedFromTarget: Bool)
        do throws(TilesError) {
            opened = try MBTilesSink.openStaging(
                stagingPath, target: target, lock: lock, metadata: metadata, resume: resume)
        } catch {
            // Refused before anything was stored: leave no in-progress file that was not there.
            lock.release(removing: !existed)
            throw error
        }
        state = Mutex(State(connection: opened.connection, stats: stats))
        guard opened.seedFromTarget else { return }
        do throws(TilesError) {
            let complete: any PyramidSource
            do { complete = try openTarget(target) } catch { throw TilesError.notResumable(path: target) }
            try MBTilesSink.checkSameJob(try Self.metadata(of: complete), metadata, path: target)
            try copyTiles(from: complete)
        } catch {
            state.withLock { $0.connection = nil }
            if !existed {
                for suffix in MBTilesSink.companionSuffixes { unlink(stagingPath + suffix) }
            }
            lock.release(removing: !existed)
            throw error
        }
    }

    /// Opens the in-progress file: started over without `resume`, checked with it. Returns
    /// whether a resumed job has to start from the complete target (no in-progress file).
    private static func openStaging(
        _ stagingPath: String, target: String, lock: OutputLock, metadata: TileSetMetadata, resume: Bool
    ) throws(TilesError) -> (connection: Connection, seedFromTarget: Bool) {
        var status = stat()
        let inProgress = stat(stagingPath, &status) == 0 && status.st_size > 0
        if !resume || !inProgress {
            try lock.truncate()
            for suffix in companionSuffixes where unlink(stagingPath + suffix) != 0 && errno != ENOENT {
                throw .io(path: stagingPath + suffix, message: "cannot remove it (\(String(cString: strerror(errno))))")
            }
        }
        let database = try sqlite(try SQLiteDatabase(path: stagingPath, mode: .create))
        // A job killed between creating the file and committing its schema leaves an empty
        // database: nothing was stored yet, so a resumed job simply starts it over.
        let tables = inProgress ? try sqlite(try database.scalarInt("SELECT count(*) FROM sqlite_master")) ?? 0 : 0
        if resume && tables > 0 {
            for table in ["map", "images", "metadata"] where !(try sqlite(try database.hasTable(table))) {
                throw .notResumable(path: stagingPath)
            }
            try checkSameJob(try sqlite(try MBTilesSchema.readMetadata(from: database)), metadata, path: stagingPath)
        }
        let connection: Connection
        do throws(SQLiteError) {
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            try database.execute("BEGIN")
            try database.execute(MBTilesSchema.create())
            try MBTilesSchema.writeMetadata(metadata, to: database)
            try database.execute("COMMIT")
            connection = Connection(
                database: database, images: try MBTilesImages(database: database),
                insertTile: try database.prepare(
                    "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?1, ?2, ?3, ?4)"))
        } catch { throw TilesError(error) }
        return (connection, resume && !inProgress && FileManager.default.fileExists(atPath: target))
    }

    private static func checkSameJob(_ found: TileSetMetadata, _ expected: TileSetMetadata, path: String)
        throws(TilesError)
    {
        if let difference = expected.identityDifference(from: found) {
            throw .differentJob(path: path, key: difference.key, found: difference.found, expected: difference.expected)
        }
    }

    private static func metadata(of source: any PyramidSource) throws(TilesError) -> TileSetMetadata {
        do { return try source.metadata() } catch { throw .notResumable(path: source.location) }
    }

    /// Copies the tiles of a complete earlier file into the in-progress one (statistics not
    /// counted: they were written by the earlier run).
    private func copyTiles(from source: any PyramidSource) throws(TilesError) {
        do {
            var batch: [EncodedTile] = []
            try source.forEachTile { tile, data in
                batch.append(EncodedTile(tile: tile, data: data, dataHash: ContentHash(of: data)))
                if batch.count >= MBTilesSink.batchTiles {
                    try write(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try write(batch)
            try state.withLock { state throws(TilesError) in
                try state.commit()
                state.stats = SinkStatistics()
                state.stats.newImages = 0
            }
        } catch let error as TilesError {
            throw error
        } catch {
            throw .io(path: source.location, message: "\(error)")
        }
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> {
        try state.withLock { state throws(TilesError) -> Set<TileID> in
            guard let database = state.connection?.database else {
                throw .io(path: stagingPath, message: "the file is closed")
            }
            do throws(SQLiteError) {
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
            } catch { throw TilesError(error) }
        }
    }

    public func write(_ tiles: [EncodedTile]) throws {
        try state.withLock { state throws(TilesError) in
            guard let connection = state.connection else { throw .io(path: stagingPath, message: "the file is closed") }
            if !state.inTransaction {
                try sqlite(try connection.database.execute("BEGIN"))
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
                do throws(SQLiteError) {
                    try insertTile.bind(1, tile.tile.z)
                    try insertTile.bind(2, tile.tile.x)
                    try insertTile.bind(3, tile.tile.tmsY)
                    try insertTile.bind(4, id)
                    try insertTile.run()
                } catch { throw TilesError(error) }
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

    /// Commits what is pending, folds the log into the file and closes it.
    func closeDatabase() throws(TilesError) {
        try state.withLock { state throws(TilesError) in
            guard let connection = state.connection else { return }
            try state.commit()
            // Checkpoints the log into the file and deletes it.
            try sqlite(
                try connection.database.execute(
                    "PRAGMA journal_mode = DELETE", retryingWhileBusyFor: SQLiteDatabase.closingPatience))
            state.connection = nil
        }
    }

    /// The job is complete: its sorted copy replaces the target and the in-progress file is
    /// deleted (`.rename`), or the file stays for the owner, locked until `release` (`.keep`).
    public func finish() throws {
        guard delivery == .rename else { return try closeDatabase() }
        let sortedPath = stagingPath + MBTilesSink.sortedSuffix
        try state.withLock { state throws(TilesError) in
            guard let connection = state.connection else { throw .io(path: stagingPath, message: "the file is closed") }
            try state.commit()
            unlink(sortedPath)  // a copy cut short by an earlier run
            try sqlite(try MBTilesSortedCopy.write(from: connection.database, to: sortedPath))
            connection.database.skipCheckpointOnClose()
            state.connection = nil
        }
        do { try MBTilesSink.replace(path, with: sortedPath) } catch {
            throw TilesError.io(path: path, message: error.reason)
        }
        discardStagingFile()
    }

    /// The job failed or was stopped: what is committed stays in the in-progress file for
    /// `--resume`.
    public func abandon() throws {
        defer { lock.release() }
        try closeDatabase()
    }

    public func discard() throws {
        defer { discardStagingFile() }
        try closeDatabase()
    }

    /// Lets another job at the output (`.keep`: the owner could not use the file).
    func releaseLock() {
        lock.release()
    }

    /// Deletes the in-progress file and its lock (`.keep`: the owner has made the target).
    func discardStagingFile() {
        for suffix in MBTilesSink.companionSuffixes { unlink(stagingPath + suffix) }
        lock.release(removing: true)
    }

    /// Renames `source` over `target` after flushing it to disk, then flushes the folder, so a
    /// power cut leaves one or the other.
    static func replace(_ target: String, with source: String) throws(FileError) {
        let fd = open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileError(path: source, operation: "read", reason: String(cString: strerror(errno)))
        }
        let synced = fsync(fd)
        close(fd)
        guard synced == 0 else {
            throw FileError(path: target, operation: "write", reason: String(cString: strerror(errno)))
        }
        guard rename(source, target) == 0 else {
            throw FileError(path: target, operation: "rename to", reason: String(cString: strerror(errno)))
        }
        let folder = (target as NSString).deletingLastPathComponent
        let folderFD = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    public var statistics: SinkStatistics {
        state.withLock { $0.stats }
    }
}
