/// Debian's `sqlite3` shell: a reader of MBTiles files independent of our SQLite code.
public enum SQLiteShell {
    /// Runs `sql` on `database` and returns what it printed, trimmed. A database the shell
    /// cannot read, or SQL it rejects, throws a `ToolFailure` naming the problem.
    public static func query(_ database: String, _ sql: String) throws -> String {
        try run(database, sql).succeeded().stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// As `query`, with the exit status left to the caller (for a file being written, which
    /// may not hold its tables yet).
    public static func run(_ database: String, _ sql: String) throws -> ToolRun {
        try Tool.run("sqlite3", ["-batch", "-bail", database, sql])
    }

    /// What an MBTiles file holds, as text: every tile's bytes and the metadata (not how the
    /// SQLite pages are laid out).
    public static func content(_ database: String) throws -> String {
        try query(
            database,
            "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles ORDER BY 1, 2, 3; SELECT name, value FROM metadata ORDER BY name;"
        )
    }
}
