/// The three ways a tile set is stored: a directory of z/x/y files, an MBTiles file (SQLite),
/// a PMTiles archive (one file of directories and tile data).
public enum TileArchiveKind: String, Sendable, Equatable, CaseIterable {
    case directory, mbtiles, pmtiles
}
