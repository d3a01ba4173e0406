import Foundation

/// What a finished job did, printed at the end of a job and also written as JSON.
public struct TileJobSummary: Sendable, Equatable, Codable {
    /// Tiles written by this run.
    public var tiles: Int
    /// Tiles already there and skipped (a resumed job).
    public var skipped: Int
    /// Tiles not stored because nothing in them would show (`--skip-empty`).
    public var empty: Int
    /// Distinct tile images among those written: rows added to an MBTiles file's `images`
    /// table; for a directory, the images encoded (each distinct image is encoded once while
    /// it stays in the encoding cache).
    public var distinct: Int
    /// Bytes of tile data stored (an MBTiles file stores each distinct image once).
    public var bytes: Int
    public var seconds: Double
    /// `tiles / seconds`.
    public var tilesPerSecond: Double

    enum CodingKeys: String, CodingKey {
        case tiles, skipped, empty, distinct, bytes, seconds
        case tilesPerSecond = "tiles_per_second"
    }

    /// One line: `5461 tiles written (412 distinct, 1.9 MB) in 3.2 s: 1706 tiles/s`.
    public var text: String {
        var line =
            "\(tiles) tiles written (\(distinct) distinct, \(Self.formatBytes(bytes))) in \(String(format: "%.1f", seconds)) s: \(Int(tilesPerSecond.rounded())) tiles/s"
        if empty > 0 { line += "; \(empty) empty tiles left out" }
        if skipped > 0 { line += "; \(skipped) already there were skipped" }
        return line
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func formatBytes(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1e3) }
        if bytes < 1_000_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
        return String(format: "%.2f GB", Double(bytes) / 1e9)
    }
}
