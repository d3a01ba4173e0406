import CSQLite

/// A read-only SQLite connection, for reading GeoPackage tables without OGR (a thin wrapper:
/// it owns the `sqlite3` handle and closes it in deinit). Used by one thread at a time.
final class SQLiteReadConnection {
    fileprivate let handle: OpaquePointer

    /// Nil when SQLite cannot open the file read-only (the caller keeps OGR's reading).
    init?(path: String) {
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            return nil
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// SQLite's last message on this connection.
    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// A statement, or nil with SQLite's message when it does not compile.
    func query(_ sql: String) -> Result<SQLiteQuery, SQLiteFailure> {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            return .failure(SQLiteFailure(message: lastMessage))
        }
        return .success(SQLiteQuery(connection: self, statement: statement))
    }

    /// The text of each row's first column (NULLs left out).
    func texts(_ sql: String) -> [String] {
        guard case .success(let query) = self.query(sql) else { return [] }
        var found: [String] = []
        while (try? query.step()) == true {
            if let text = query.text(0) { found.append(text) }
        }
        return found
    }
}

/// What SQLite said went wrong.
struct SQLiteFailure: Error {
    let message: String
}

/// A prepared statement (finalised in deinit). Parameters count from 1, columns from 0, as in
/// SQLite's C API.
final class SQLiteQuery {
    private let connection: SQLiteReadConnection
    private let statement: OpaquePointer

    fileprivate init(connection: SQLiteReadConnection, statement: OpaquePointer) {
        self.connection = connection
        self.statement = statement
    }

    deinit { sqlite3_finalize(statement) }

    /// Makes the statement ready to run again with these parameters.
    func restart(binding values: [Double] = []) {
        sqlite3_reset(statement)
        for (i, value) in values.enumerated() { sqlite3_bind_double(statement, Int32(i + 1), value) }
    }

    /// Advances to the next row: true when there is one, false when done.
    func step() throws(SQLiteFailure) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteFailure(message: connection.lastMessage)
        }
    }

    @inline(__always) func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    @inline(__always) func int32(_ column: Int32) -> Int32 { sqlite3_column_int(statement, column) }
    @inline(__always) func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    @inline(__always) func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }

    /// The length of a text column as `text` reads it (up to its first NUL) when that is
    /// plain ASCII, counted in SQLite's buffer; nil for NULL or any other byte.
    func asciiTextLength(_ column: Int32) -> Int? {
        // The pointer first, then the size: SQLite's documented order.
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        for i in 0..<count {
            let byte = text[i]
            if byte == 0 { return i }
            if byte >= 0x80 { return nil }
        }
        return count
    }

    /// The bytes of a blob column, valid until the next step (empty for NULL).
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        // The pointer first, then the size: SQLite's documented order.
        let pointer = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }
}
