// The lettering of MGRS 100 km squares (NGA.STND.0037, the current "AA" scheme for WGS84).
// All tables are ASCII bytes so that encoding does no Character work.
enum MGRSLetters {
    /// Column letters repeat every three zones: zone 1, 4, 7... use A–H, 2, 5, 8... J–R,
    /// 3, 6, 9... S–Z. Column index 0 is the square from 100 km to 200 km easting.
    static let utmColumns: [[UInt8]] = ["ABCDEFGH", "JKLMNPQR", "STUVWXYZ"].map { Array($0.utf8) }
    /// Row letters cycle every 2,000 km from the equator; even zones start 5 letters on (F).
    static let utmRows: [UInt8] = Array("ABCDEFGHJKLMNPQRSTUV".utf8)
    static let utmRowPeriod = 20
    static let evenZoneRowShift = 5

    /// UPS "bands": A (south pole, west of 0°/180°), B (south, east), Y (north, west), Z (north, east).
    static let upsBands: [UInt8] = Array("ABYZ".utf8)
    /// UPS column letters by band A, B, Y, Z; columns start at these 100 km indices.
    static let upsColumns: [[UInt8]] = ["JKLPQRSTUXYZ", "ABCFGHJKLPQR", "RSTUXYZ", "ABCFGHJ"]
        .map { Array($0.utf8) }
    /// UPS row letters, south then north.
    static let upsRows: [[UInt8]] = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "ABCDEFGHJKLMNP"].map { Array($0.utf8) }

    // In 100 km units: the extent of MGRS squares in each system.
    static let tile = 100_000.0
    static let upsEastingSplit = 20  // 2,000 km: the 0°/180° meridian
    static let upsSouthMin = 8, upsSouthMax = 32  // 800–3,200 km
    static let upsNorthMin = 13, upsNorthMax = 27  // 1,300–2,700 km
    static let utmMinColumn = 1, utmMaxColumn = 9  // 100–900 km
    static let utmSouthMinRow = 10, utmSouthMaxRow = 100  // 1,000–10,000 km
    static let utmNorthMinRow = 0, utmNorthMaxRow = 95  // 0–9,500 km

    /// The absolute row (100 km squares north of the equator, negative in the south) of a
    /// square given its band (-10...9), column (0...7) and row letter index (0...19, with the
    /// even-zone shift already removed); `utmSouthMaxRow` when no square of that row letter
    /// lies in the band. Each band spans 9 or 10 rows (X: 14); the checks at the band
    /// edges allow the squares that straddle them, which depend on the column because
    /// parallels curve on the grid.
    static func utmRow(band: Int, column: Int, rowLetter: Int) -> Int {
        // Row at the middle of the band: 90° is 100 squares, so a band of 8° is 100·8/90.
        let c = 100 * Double(8 * band + 4) / 90
        let north = band >= 0 ? 0.1 : 0
        let minRow = band > -10 ? Int((c - 4.3 - north).rounded(.down)) : -90
        let maxRow = band < 9 ? Int((c + 4.4 - north).rounded(.down)) : 94
        let baseRow = (minRow + maxRow) / 2 - utmRowPeriod / 2
        let row = (rowLetter - baseRow + utmSouthMaxRow) % utmRowPeriod + baseRow
        if row >= minRow && row <= maxRow { return row }
        // Rows 70/71 and 79/80 (and their mirror images in the south) cross a band edge
        // for some columns only.
        let sBand = band >= 0 ? band : -band - 1
        let sRow = row >= 0 ? row : -row - 1
        let sCol = column < 4 ? column : -column + 7
        if (sRow == 70 && sBand == 8 && sCol >= 2) || (sRow == 71 && sBand == 7 && sCol <= 2)
            || (sRow == 79 && sBand == 9 && sCol >= 1) || (sRow == 80 && sBand == 8 && sCol <= 1)
        {
            return row
        }
        return utmSouthMaxRow
    }
}
