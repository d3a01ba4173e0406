import CSQLite

/// One SQLite connection (a thin wrapper: it owns the `sqlite3` handle and closes it in
/// deinit). Errors name the database file. Not thread-safe: callers serialise their use. Tile
/// sets (MBTiles) are written and read through it, and GeoPackage tables read.
public final class SQLiteDatabase {
    public let path: String
    @usableFromInline let handle: OpaquePointer?

    public enum Mode: Sendable { case readOnly, readWrite, create }

    public init(path: String, mode: Mode) throws(SQLiteError) {
        self.path = path
        let flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .create: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        handle = db
        guard status == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            throw SQLiteError(path: path, message: "cannot open: \(message)")
        }
        sqlite3_busy_timeout(db, 5000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        // Statements are finalised by their own deinit first (they hold this object).
        sqlite3_close_v2(handle)
    }

    /// The failure of a call that returned `status`, with SQLite's message, saying what was
    /// being done.
    func error(_ status: Int32, _ doing: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        return SQLiteError(path: path, message: "\(doing): \(message)")
    }

    /// Bytes of the connection's page cache in use now (`SQLITE_DBSTATUS_CACHE_USED`).
    public var pageCacheBytes: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Runs SQL without results (several statements allowed).
    public func execute(_ sql: String) throws(SQLiteError) {
        try execute(sql, retryingWhileBusyFor: .zero)
    }

    /// Runs SQL without results, again while another connection holds the file, for up to
    /// `patience`. SQLite does not call the busy handler for every lock: leaving WAL mode
    /// needs the file to itself and fails at once while a reader has it open.
    public func execute(_ sql: String, retryingWhileBusyFor patience: Duration) throws(SQLiteError) {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while true {
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(handle, sql, nil, nil, &message)
            if status == SQLITE_OK { return }
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            guard status & 0xff == SQLITE_BUSY, clock.now < deadline else {
                throw SQLiteError(path: path, message: "\(text) (in: \(sql.prefix(60)))")
            }
            sqlite3_sleep(10)
        }
    }

    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// The first column of the first row of a query, as an integer (nil for no row or NULL).
    public func scalarInt(_ sql: String) throws(SQLiteError) -> Int? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.int(0)
    }

    /// The text of each row's first column (NULLs left out).
    public func texts(_ sql: String) throws(SQLiteError) -> [String] {
        let statement = try prepare(sql)
        var found: [String] = []
        while try statement.step() {
            if let text = statement.text(0) { found.append(text) }
        }
        return found
    }

    /// When this connection closes, its write-ahead log is not folded back into the file: for
    /// a file about to be deleted, where the fold would write and flush pages for nothing.
    public func skipCheckpointOnClose() {
        meridian_sqlite_no_checkpoint_on_close(handle)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    public func hasTable(_ name: String) throws(SQLiteError) -> Bool {
        let statement = try prepare("SELECT 1 FROM sqlite_master WHERE name = ?1 AND type IN ('table', 'view')")
        try statement.bind(1, name)
        return try statement.step()
    }
}
