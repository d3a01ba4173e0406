import CSQLite

/// A prepared statement (owns the `sqlite3_stmt`, finalised in deinit). Parameters count from 1,
/// result columns from 0, as in SQLite's C API. The column readers are inlinable: a GeoPackage
/// reader calls them for every attribute of every feature.
public final class SQLiteStatement {
    private let database: SQLiteDatabase
    @usableFromInline let statement: OpaquePointer?

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        self.database = database
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &prepared, nil)
        statement = prepared
        guard status == SQLITE_OK else { throw database.error(status, "cannot prepare \(sql.prefix(60))") }
    }

    deinit { sqlite3_finalize(statement) }

    public func bind(_ index: Int32, _ value: Int) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, sqlite3_int64(value)))
    }

    public func bind(_ index: Int32, _ value: Double) throws(SQLiteError) {
        try check(sqlite3_bind_double(statement, index, value))
    }

    public func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        try check(sqlite3_bind_text(statement, index, value, -1, meridian_sqlite_transient()))
    }

    public func bind(_ index: Int32, _ bytes: [UInt8]) throws(SQLiteError) {
        let status = bytes.withUnsafeBytes { raw in
            // A zero-length blob needs a non-null pointer to be a blob rather than NULL.
            sqlite3_bind_blob(
                statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count),
                meridian_sqlite_transient())
        }
        try check(status)
    }

    private func check(_ status: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else { throw database.error(status, "cannot bind a parameter") }
    }

    /// Advances to the next row: true when there is one, false when done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(status, "query failed")
        }
    }

    /// Runs the statement to its end, then makes it ready to bind and run again.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Makes the statement ready to bind and run again, its parameters NULL.
    public func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    @inlinable public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    @inlinable public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    @inlinable public func int32(_ column: Int32) -> Int32 { sqlite3_column_int(statement, column) }
    @inlinable public func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    @inlinable public func text(_ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }

    /// The length of a text column as `text` reads it (up to its first NUL) when that is
    /// plain ASCII, counted in SQLite's buffer; nil for NULL or any other byte.
    public func asciiTextLength(_ column: Int32) -> Int? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        // The pointer first, then the size: SQLite's documented order.
        let count = Int(sqlite3_column_bytes(statement, column))
        for i in 0..<count {
            let byte = text[i]
            if byte == 0 { return i }
            if byte >= 0x80 { return nil }
        }
        return count
    }

    /// The bytes of a blob column, copied.
    public func blob(_ column: Int32) -> [UInt8] {
        [UInt8](blobView(column))
    }

    /// The bytes of a blob column in SQLite's own buffer, valid until the next step or reset
    /// (empty for NULL).
    @inlinable public func blobView(_ column: Int32) -> UnsafeRawBufferPointer {
        // The pointer first, then the size: SQLite's documented order.
        let pointer = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }
}
