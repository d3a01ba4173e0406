/// One XYZ tile: zoom `z`, column `x` from the antimeridian eastwards, row `y` from the north
/// edge southwards (the scheme of web maps). MBTiles and `--scheme tms` count rows from the
/// south instead: `tmsY`.
public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let z: Int
    public let x: Int
    public let y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// The row counted from the south edge (TMS, MBTiles).
    public var tmsY: Int { (1 << z) - 1 - y }

    /// The tile whose TMS row is `tmsY`.
    public init(z: Int, x: Int, tmsY: Int) {
        self.init(z: z, x: x, y: (1 << z) - 1 - tmsY)
    }

    /// Zoom, then row, then column: the order tiles are listed in.
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}
