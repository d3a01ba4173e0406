import SQLite

/// The MBTiles layout written here: tiles are a `map` from (zoom, column, TMS row) to an image
/// id, and `images` holds each distinct image once, named by the hash of its bytes; the
/// `tiles` view joins them into the table every MBTiles reader expects. Open ocean, repeated
/// thousands of times in a pyramid, is stored once. `map` is a WITHOUT ROWID table keyed by
/// the tile: its rows live in the key's B-tree, so there is no second index to store.
enum MBTilesSchema {
    /// The tables, indexes and view, made in `schema` (`main`, or an attached database's name)
    /// where missing.
    static func create(in schema: String = "main") -> String {
        """
        CREATE TABLE IF NOT EXISTS \(schema).metadata (name TEXT NOT NULL, value TEXT);
        CREATE UNIQUE INDEX IF NOT EXISTS \(schema).metadata_name ON metadata (name);
        CREATE TABLE IF NOT EXISTS \(schema).map (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL,
                                        tile_row INTEGER NOT NULL, tile_id TEXT NOT NULL,
                                        PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS \(schema).images (tile_data BLOB NOT NULL, tile_id TEXT NOT NULL);
        CREATE UNIQUE INDEX IF NOT EXISTS \(schema).images_id ON images (tile_id);
        CREATE VIEW IF NOT EXISTS \(schema).tiles AS
            SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                   map.tile_row AS tile_row, images.tile_data AS tile_data
            FROM map JOIN images ON images.tile_id = map.tile_id;
        """
    }

    /// Replaces the metadata table's rows with `metadata`, sorted by key.
    static func writeMetadata(_ metadata: TileSetMetadata, to database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute("DELETE FROM metadata")
        let insert = try database.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
        for key in metadata.values.keys.sorted() {
            try insert.bind(1, key)
            try insert.bind(2, metadata.values[key]!)
            try insert.run()
        }
    }

    static func readMetadata(from database: SQLiteDatabase) throws(SQLiteError) -> TileSetMetadata {
        guard try database.hasTable("metadata") else { return TileSetMetadata(values: [:]) }
        let query = try database.prepare("SELECT name, value FROM metadata")
        var values: [String: String] = [:]
        while try query.step() {
            if let name = query.text(0) { values[name] = query.text(1) ?? "" }
        }
        return TileSetMetadata(values: values)
    }
}

/// The `images` table's writer: each distinct image stored once, named by the hex of its
/// `ContentHash`. A name already taken is not trusted blindly: the stored bytes are compared
/// with the new ones (in SQLite, without reading them out), so two different images never
/// end up sharing one row, however unlikely a 128-bit collision is.
struct MBTilesImages {
    private let database: SQLiteDatabase
    private let insert: SQLiteStatement
    private let sameBytes: SQLiteStatement

    init(database: SQLiteDatabase) throws(SQLiteError) {
        self.database = database
        insert = try database.prepare("INSERT OR IGNORE INTO images (tile_data, tile_id) VALUES (?1, ?2)")
        sameBytes = try database.prepare("SELECT tile_data = ?2 FROM images WHERE tile_id = ?1")
    }

    /// Stores `data` under `id` (the hex of its hash); true when the image was not stored yet.
    func store(_ data: [UInt8], id: String) throws(TilesError) -> Bool {
        do throws(SQLiteError) {
            try insert.bind(1, data)
            try insert.bind(2, id)
            try insert.run()
            if database.changes > 0 { return true }
            defer { sameBytes.reset() }
            try sameBytes.bind(1, id)
            try sameBytes.bind(2, data)
            if try sameBytes.step(), sameBytes.int(0) == 1 { return false }
        } catch { throw TilesError(error) }
        throw .hashCollision(path: database.path, id: id)
    }
}
