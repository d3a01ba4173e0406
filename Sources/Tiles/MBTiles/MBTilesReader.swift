import FileInput
import Foundation
import SQLite

/// Reads any MBTiles file (ours or another tool's: only the `tiles` table or view and
/// `metadata` are used). Tiles are addressed in XYZ; the TMS rows of the file are converted.
public final class MBTilesReader {
    public let path: String
    private let database: SQLiteDatabase
    private let tileQuery: SQLiteStatement

    public init(path: String) throws(TilesError) {
        // SQLite would open a FIFO and wait for a writer forever: regular files only.
        switch FileKind(atPath: path) {
        case .regular: break
        case .missing: throw .io(path: path, message: "no such file")
        case let kind: throw .io(path: path, message: kind.notAFileReason ?? "\(kind)")
        }
        self.path = path
        database = try sqlite(try SQLiteDatabase(path: path, mode: .readOnly))
        // SQLite opens any file lazily: the first query tells whether it is a database at all.
        let hasTiles: Bool
        do { hasTiles = try database.hasTable("tiles") } catch {
            throw .incompatibleOutput(path: path, message: "is not an MBTiles file (not an SQLite database)")
        }
        guard hasTiles else {
            throw .incompatibleOutput(path: path, message: "is not an MBTiles file (it has no tiles table)")
        }
        tileQuery = try sqlite(
            try database.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3"))
    }

    public func metadata() throws(TilesError) -> TileSetMetadata {
        try sqlite(try MBTilesSchema.readMetadata(from: database))
    }

    public func tileCount() throws(TilesError) -> Int {
        try sqlite(try database.scalarInt("SELECT count(*) FROM tiles")) ?? 0
    }

    /// The stored bytes of tile z/x/y (XYZ row), or nil when it is absent.
    public func tile(_ id: TileID) throws(TilesError) -> [UInt8]? {
        let query = tileQuery
        defer { query.reset() }
        do throws(SQLiteError) {
            try query.bind(1, id.z)
            try query.bind(2, id.x)
            try query.bind(3, id.tmsY)
            return try query.step() ? query.blob(0) : nil
        } catch { throw TilesError(error) }
    }

    /// Every tile id, sorted (zoom, row, column); ids only, so it is cheap for large files.
    public func forEachTileID(_ body: (TileID) throws -> Void) throws {
        let query = try sqlite(
            try database.prepare(
                "SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY zoom_level, tile_row DESC, tile_column"))
        while try sqlite(try query.step()) {
            try body(TileID(z: query.int(0), x: query.int(1), tmsY: query.int(2)))
        }
    }

    /// Every tile with its bytes, in the file's order.
    public func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        let query = try sqlite(try database.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"))
        while try sqlite(try query.step()) {
            try body(TileID(z: query.int(0), x: query.int(1), tmsY: query.int(2)), query.blob(3))
        }
    }
}
