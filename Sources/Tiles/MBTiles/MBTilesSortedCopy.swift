import SQLite

/// A finished MBTiles file is written once more with its rows in key order, so that its bytes
/// follow from its tiles alone.
///
/// Why: SQLite lays out a table's pages and row ids in the order rows are inserted. A job
/// inserts tiles in its plan's order, which the metatile size changes; a resumed job writes
/// its metadata twice; a merge inserts its inputs one after the other. So the same tiles made
/// files of different bytes. Copied into a new database in key order (tiles by zoom, column and
/// row, images by their hash's name, metadata by key), the same tiles and metadata make the same
/// file whatever the metatile, the workers, the shards merged or the interruptions.
enum MBTilesSortedCopy {
    /// Copies the tile set of `database` into a new file at `path`, which must not exist yet
    /// or be empty. Not flushed to disk: the caller flushes it before renaming it into place.
    static func write(from database: SQLiteDatabase, to path: String) throws(SQLiteError) {
        let attach = try database.prepare("ATTACH DATABASE ?1 AS sorted")
        try attach.bind(1, path)
        try attach.run()
        do throws(SQLiteError) {
            // No journal: a copy cut short is never used (the caller deletes or remakes it).
            try database.execute("PRAGMA sorted.journal_mode = OFF; PRAGMA sorted.synchronous = OFF;")
            try database.execute("BEGIN")
            try database.execute(MBTilesSchema.create(in: "sorted"))
            try database.execute(
                """
                INSERT INTO sorted.metadata (name, value) SELECT name, value FROM main.metadata ORDER BY name;
                INSERT INTO sorted.map (zoom_level, tile_column, tile_row, tile_id)
                    SELECT zoom_level, tile_column, tile_row, tile_id FROM main.map
                    ORDER BY zoom_level, tile_column, tile_row;
                INSERT INTO sorted.images (tile_data, tile_id)
                    SELECT tile_data, tile_id FROM main.images ORDER BY tile_id;
                COMMIT;
                """)
        } catch {
            try? database.execute("ROLLBACK")
            try? database.execute("DETACH DATABASE sorted")
            throw error
        }
        try database.execute("DETACH DATABASE sorted")
    }
}
