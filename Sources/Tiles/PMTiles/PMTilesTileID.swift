/// PMTiles numbers tiles along one curve through the whole pyramid: the tiles of zoom 0, then
/// those of zoom 1, and so on, each zoom's tiles in the order of the Hilbert curve that fills
/// its 2^z x 2^z square (PMTiles v3, "Entries"). Neighbouring IDs are neighbouring tiles, so
/// a run of identical tiles (open ocean) is often a run of consecutive IDs.
extension TileID {
    /// The deepest zoom whose IDs fit in 64 bits.
    static let deepestPMTilesZoom = 31

    /// The tile's PMTiles ID. Zooms above 31 do not fit; the job allows at most 24.
    var pmtilesID: UInt64 {
        precondition(z >= 0 && z <= TileID.deepestPMTilesZoom, "zoom \(z) has no PMTiles ID")
        let n = UInt64(1) << UInt64(z)
        var x = UInt64(x)
        var y = UInt64(y)
        var position: UInt64 = 0
        var s = n / 2
        while s > 0 {
            let rx: UInt64 = x & s != 0 ? 1 : 0
            let ry: UInt64 = y & s != 0 ? 1 : 0
            position += s * s * ((3 * rx) ^ ry)
            TileID.rotate(n, &x, &y, rx, ry)
            s /= 2
        }
        return TileID.firstPMTilesID(zoom: z) + position
    }

    /// The tile whose PMTiles ID is `id`; nil beyond zoom 31.
    init?(pmtilesID id: UInt64) {
        var z = 0
        while z < TileID.deepestPMTilesZoom, id >= TileID.firstPMTilesID(zoom: z + 1) { z += 1 }
        let n = UInt64(1) << UInt64(z)
        var position = id - TileID.firstPMTilesID(zoom: z)
        guard position < n * n else { return nil }
        var x: UInt64 = 0
        var y: UInt64 = 0
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (position / 2)
            let ry = 1 & (position ^ rx)
            TileID.rotate(s, &x, &y, rx, ry)
            x += s * rx
            y += s * ry
            position /= 4
            s *= 2
        }
        self.init(z: z, x: Int(x), y: Int(y))
    }

    /// The ID of zoom `z`'s first tile: the tiles of all lower zooms, (4^z - 1) / 3.
    static func firstPMTilesID(zoom z: Int) -> UInt64 {
        ((UInt64(1) << UInt64(2 * z)) - 1) / 3
    }

    /// The Hilbert curve's quadrant turn: flips and transposes a quadrant so the curve's
    /// sub-squares are visited in the right orientation. `x, y < n`.
    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = n - 1 - x
            y = n - 1 - y
        }
        swap(&x, &y)
    }
}
