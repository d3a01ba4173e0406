/// A block of tiles rendered together as one image and then cut: `columns` x `rows` tiles
/// whose top-left tile is (`x`, `y`) at zoom `z`. Metatiles sit on a grid of `size` x `size`
/// tiles aligned to multiples of `size` (as renderd's do); at the edges of a job's range a
/// metatile holds only the tiles inside it.
public struct Metatile: Sendable, Hashable, CustomStringConvertible {
    public let z: Int
    public let x: Int
    public let y: Int
    public let columns: Int
    public let rows: Int

    public init(z: Int, x: Int, y: Int, columns: Int, rows: Int) {
        self.z = z
        self.x = x
        self.y = y
        self.columns = columns
        self.rows = rows
    }

    public var tileCount: Int { columns * rows }

    /// The tiles, row by row from the north-west one: the order renderers return them in.
    public var tiles: [TileID] {
        var tiles: [TileID] = []
        tiles.reserveCapacity(tileCount)
        for row in 0..<rows {
            for column in 0..<columns { tiles.append(TileID(z: z, x: x + column, y: y + row)) }
        }
        return tiles
    }

    public var description: String { "\(z)/\(x)/\(y) (\(columns)x\(rows) tiles)" }
}
