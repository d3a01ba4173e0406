/// A rectangle of tiles at one zoom: columns `minX...maxX`, rows `minY...maxY` (XYZ rows).
public struct TileRange: Sendable, Equatable, CustomStringConvertible {
    public let z: Int
    public let minX: Int
    public let maxX: Int
    public let minY: Int
    public let maxY: Int

    public init(z: Int, minX: Int, maxX: Int, minY: Int, maxY: Int) {
        precondition(minX <= maxX && minY <= maxY, "empty tile range")
        self.z = z
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    public var columns: Int { maxX - minX + 1 }
    public var rows: Int { maxY - minY + 1 }
    public var count: Int { columns * rows }

    public var description: String { "z\(z) x \(minX)-\(maxX) y \(minY)-\(maxY)" }
}

/// Every tile of a job: the zoom levels and the area. Tile counts are computed, never listed.
public struct TilePyramid: Sendable, Equatable {
    public let zooms: ZoomRange
    public let bounds: GeoBounds
    /// One range per zoom level, lowest zoom first.
    public let ranges: [TileRange]
    public let tileCount: Int

    /// The most tiles one job may have: 2^40 (a trillion), far past any real pyramid, but a
    /// mistyped zoom (0-24 over the world is 3.8e14 tiles) is refused at once.
    public static let maxTiles = 1 << 40

    public init(zooms: ZoomRange, bounds: GeoBounds = .world) throws(TilesError) {
        self.zooms = zooms
        self.bounds = bounds
        ranges = zooms.levels.map { bounds.tileRange(zoom: $0) }
        var total = 0
        for range in ranges {
            total += range.count
            guard total <= TilePyramid.maxTiles else {
                throw .tooManyTiles(
                    zooms: zooms, bounds: bounds, zoom: range.z, count: range.count, limit: TilePyramid.maxTiles)
            }
        }
        tileCount = total
    }
}
