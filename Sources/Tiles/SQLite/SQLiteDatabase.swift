import CSQLite

/// One SQLite connection (a thin wrapper: it owns the `sqlite3` handle and closes it in
/// deinit). Errors name the database file. Not thread-safe: callers serialise their use.
final class SQLiteDatabase {
    let path: String
    private(set) var handle: OpaquePointer?

    enum Mode { case readOnly, readWrite, create }

    init(path: String, mode: Mode) throws(TilesError) {
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
            throw .sqlite(path: path, message: "cannot open: \(message)")
        }
        sqlite3_busy_timeout(db, 5000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        // Statements are finalised by their own deinit first (they hold this object).
        sqlite3_close_v2(handle)
    }

    func error(_ status: Int32, _ doing: String) -> TilesError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        return .sqlite(path: path, message: "\(doing): \(message)")
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws(TilesError) {
        try execute(sql, retryingWhileBusyFor: .zero)
    }

    /// Runs SQL without results, again while another connection holds the file, for up to
    /// `patience`. SQLite does not call the busy handler for every lock: leaving WAL mode
    /// needs the file to itself and fails at once while a reader (`sqlite3` counting the
    /// tiles of a job's partial file) has it open, which would fail a finished job.
    func execute(_ sql: String, retryingWhileBusyFor patience: Duration) throws(TilesError) {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while true {
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(handle, sql, nil, nil, &message)
            if status == SQLITE_OK { return }
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            guard status & 0xff == SQLITE_BUSY, clock.now < deadline else {
                throw .sqlite(path: path, message: "\(text) (in: \(sql.prefix(60)))")
            }
            sqlite3_sleep(10)
        }
    }

    /// How long a job waits for readers to let go of its file when it closes it.
    static let closingPatience = Duration.seconds(30)

    func prepare(_ sql: String) throws(TilesError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// The first column of the first row of a query, as an integer (nil for no row or NULL).
    func scalarInt(_ sql: String) throws(TilesError) -> Int? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.int(0)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    func hasTable(_ name: String) throws(TilesError) -> Bool {
        let statement = try prepare("SELECT 1 FROM sqlite_master WHERE name = ?1 AND type IN ('table', 'view')")
        try statement.bind(1, name)
        return try statement.step()
    }
}

/// A prepared statement (owns the `sqlite3_stmt`, finalised in deinit). Parameters count from 1,
/// result columns from 0, as in SQLite's C API.
final class SQLiteStatement {
    private let database: SQLiteDatabase
    private var statement: OpaquePointer?

    fileprivate init(database: SQLiteDatabase, sql: String) throws(TilesError) {
        self.database = database
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK else { throw database.error(status, "cannot prepare \(sql.prefix(60))") }
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ index: Int32, _ value: Int) throws(TilesError) {
        try check(sqlite3_bind_int64(statement, index, sqlite3_int64(value)))
    }

    func bind(_ index: Int32, _ value: String) throws(TilesError) {
        try check(sqlite3_bind_text(statement, index, value, -1, meridian_sqlite_transient()))
    }

    func bind(_ index: Int32, _ bytes: [UInt8]) throws(TilesError) {
        let status = bytes.withUnsafeBytes { raw in
            // A zero-length blob needs a non-null pointer to be a blob rather than NULL.
            sqlite3_bind_blob(
                statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count),
                meridian_sqlite_transient())
        }
        try check(status)
    }

    private func check(_ status: Int32) throws(TilesError) {
        guard status == SQLITE_OK else { throw database.error(status, "cannot bind a parameter") }
    }

    /// Advances to the next row: true when there is one, false when done.
    @discardableResult
    func step() throws(TilesError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(status, "query failed")
        }
    }

    /// Runs the statement to its end, then makes it ready to bind and run again.
    func run() throws(TilesError) {
        defer { reset() }
        while try step() {}
    }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
