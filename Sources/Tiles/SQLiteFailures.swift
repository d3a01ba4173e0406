import SQLite

extension TilesError {
    /// SQLite's failure as a job reports it (naming the file).
    init(_ error: SQLiteError) { self = .sqlite(path: error.path, message: error.message) }
}

/// One SQLite call, its failure reported as a job reports it. (Several calls together go in
/// `do throws(SQLiteError) { ... } catch { throw TilesError(error) }`.)
func sqlite<T>(_ call: @autoclosure () throws(SQLiteError) -> T) throws(TilesError) -> T {
    do { return try call() } catch { throw TilesError(error) }
}

extension SQLiteDatabase {
    /// How long a job waits for readers to let go of its file when it closes it (leaving WAL
    /// mode needs the file to itself).
    static let closingPatience = Duration.seconds(30)
}
