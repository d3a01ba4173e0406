import Foundation

/// One MGRS grid reference taken apart: grid zone, 100 km square and the digits.
/// `mgrs` writes it as `18SUJ2348706483`, `usng` as `18S UJ 23487 06483`.
public struct MGRSReference: Hashable, Sendable {
    /// UTM zone 1...60, or 0 for UPS.
    public var zone: Int
    /// Digits per axis: -1 for the grid zone alone, 0 for the 100 km square, 5 for 1 m,
    /// up to 11 for 1 µm.
    public var digits: Int
    /// Easting and northing within the 100 km square, in units of the last digit
    /// (truncated, never rounded).
    public var eastingDigits: Int64
    public var northingDigits: Int64
    // Letters as ASCII (0 when absent), so that writing the text does no Character work.
    var bandByte: UInt8
    var columnByte: UInt8 = 0
    var rowByte: UInt8 = 0

    /// The band letter: C...X for UTM, A, B, Y or Z for UPS.
    public var band: Character { MGRS.letter(bandByte) }
    /// The 100 km square's column and row letters (nil when only the grid zone is given).
    public var column: Character? { columnByte == 0 ? nil : MGRS.letter(columnByte) }
    public var row: Character? { rowByte == 0 ? nil : MGRS.letter(rowByte) }

    /// The grid zone designator: `18S`, or `Z` for UPS.
    public var gridZoneDesignator: String { text(spaces: false, gridZoneOnly: true) }

    /// The MGRS form, no spaces: `18SUJ2348706483`.
    public var mgrs: String { text(spaces: false) }

    /// The USNG form, spaces between the parts: `18S UJ 23487 06483`.
    public var usng: String { text(spaces: true) }

    /// Writes the reference straight into a string of the exact length (at most 30 bytes;
    /// up to 15, as for 1 m MGRS, it is stored inline and nothing is allocated).
    private func text(spaces: Bool, gridZoneOnly: Bool = false) -> String {
        var length = (zone != UTM.upsZone ? 2 : 0) + 1
        if !gridZoneOnly && columnByte != 0 {
            length += (spaces ? 1 : 0) + 2
            if digits > 0 { length += 2 * digits + (spaces ? 2 : 0) }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var n = 0
            func put(_ byte: UInt8) {
                buffer[n] = byte
                n += 1
            }
            if zone != UTM.upsZone {
                put(UInt8(48 + zone / 10))
                put(UInt8(48 + zone % 10))
            }
            put(bandByte)
            guard !gridZoneOnly, columnByte != 0 else { return n }
            if spaces { put(32) }
            put(columnByte)
            put(rowByte)
            guard digits > 0 else { return n }
            func putDigits(_ value: Int64) {
                if spaces { put(32) }
                var v = value
                for i in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[n + i] = UInt8(48 + v % 10)
                    v /= 10
                }
                n += digits
            }
            putDigits(eastingDigits)
            putDigits(northingDigits)
            return n
        }
    }
}

/// The Military Grid Reference System on WGS84 (UTM between 80°S and 84°N, UPS beyond),
/// lettered as NGA.STND.0037 and GeographicLib's GeoConvert do it.
public enum MGRS {
    /// The finest precision: 11 digits per axis, 1 µm.
    public static let maxDigits = 11

    /// The MGRS reference of a position in its standard zone, with `digits` digits per
    /// axis (-1: grid zone only; 0: 100 km square; 5: 1 m; up to 11). Coordinates are
    /// truncated to the square that contains the position, never rounded.
    public static func encode(_ position: GeoPosition, digits: Int = 5) throws(GeodesyError) -> String {
        try reference(position, digits: digits).mgrs
    }

    /// As `encode`, taken apart.
    public static func reference(_ position: GeoPosition, digits: Int = 5) throws(GeodesyError) -> MGRSReference {
        let c = try UTM.forward(position)
        return try reference(c, latitude: position.latitude, digits: digits)
    }

    /// The MGRS reference of a UTM/UPS coordinate, in the coordinate's own zone (which
    /// may be a neighbour of the standard one). The latitude picks the band letter near
    /// band edges; when nil it is computed from the coordinate. Throws when the
    /// coordinate is outside the MGRS squares of its zone or the latitude does not match.
    public static func reference(
        _ c: UTMCoordinate, latitude: Double? = nil,
        digits: Int = 5
    ) throws(GeodesyError) -> MGRSReference {
        guard (-1...maxDigits).contains(digits) else {
            throw .precisionOutOfRange(digits, allowed: -1...maxDigits)
        }
        guard (0...60).contains(c.zone) else { throw .invalidZone(c.zone) }
        let utm = c.zone != UTM.upsZone
        guard c.easting.isFinite, c.northing.isFinite else {
            let limits = UTM.limits(zone: c.zone, north: c.isNorth, slop: false)
            if !c.easting.isFinite {
                throw .coordinateOutOfRange(
                    axis: "easting", value: c.easting, system: "MGRS/" + limits.system,
                    range: limits.e0...limits.e1)
            }
            throw .coordinateOutOfRange(
                axis: "northing", value: c.northing, system: "MGRS/" + limits.system,
                range: limits.n0...limits.n1)
        }
        var north = c.isNorth
        var x = c.easting
        var y = c.northing
        try fold(utm: utm, north: &north, x: &x, y: &y)

        // Work in integer micrometres so that truncation is exact for every precision.
        let micro: Int64 = 1_000_000
        let ix = Int64((x * Double(micro)).rounded(.down))
        let iy = Int64((y * Double(micro)).rounded(.down))
        let square = micro * 100_000
        let xh = Int(ix / square)
        let yh = Int(iy / square)

        var ref = MGRSReference(zone: c.zone, digits: digits, eastingDigits: 0, northingDigits: 0, bandByte: 0)
        if utm {
            let lat =
                latitude
                ?? UTM.unproject(
                    UTMCoordinate(
                        zone: c.zone, isNorth: north,
                        easting: x, northing: y)
                ).latitude
            guard Swift.abs(lat) <= 90 else { throw .latitudeOutOfRange(lat) }
            // Within 2^-46° of the equator the sign of the hemisphere decides the band.
            let angeps = 1.0 / Double(1 << 46)
            let band = Swift.abs(lat) < angeps ? (north ? 0 : -1) : LatitudeBand.clampedIndex(latitude: lat)
            let column = xh - MGRSLetters.utmMinColumn
            let row = MGRSLetters.utmRow(band: band, column: column, rowLetter: yh % MGRSLetters.utmRowPeriod)
            guard row == yh - (north ? MGRSLetters.utmNorthMinRow : MGRSLetters.utmSouthMaxRow) else {
                throw .invalidGridReference(
                    "zone \(c.zone) \(x) \(y)",
                    reason: "latitude \(DecimalFormat.shortest(lat)) is inconsistent with the UTM coordinates")
            }
            let shift = (c.zone - 1) & 1 == 1 ? MGRSLetters.evenZoneRowShift : 0
            ref.bandByte = LatitudeBand.letters[band + 10]
            ref.columnByte = MGRSLetters.utmColumns[(c.zone - 1) % 3][column]
            ref.rowByte = MGRSLetters.utmRows[(yh + shift) % MGRSLetters.utmRowPeriod]
        } else {
            let east = xh >= MGRSLetters.upsEastingSplit
            let band = (north ? 2 : 0) + (east ? 1 : 0)
            let minIndex = north ? MGRSLetters.upsNorthMin : MGRSLetters.upsSouthMin
            ref.bandByte = MGRSLetters.upsBands[band]
            ref.columnByte = MGRSLetters.upsColumns[band][xh - (east ? MGRSLetters.upsEastingSplit : minIndex)]
            ref.rowByte = MGRSLetters.upsRows[north ? 1 : 0][yh - minIndex]
        }
        if digits < 0 {
            ref.columnByte = 0
            ref.rowByte = 0
        } else if digits > 0 {
            var divisor: Int64 = 1
            for _ in 0..<(maxDigits - digits) { divisor *= 10 }
            ref.eastingDigits = (ix - square * Int64(xh)) / divisor
            ref.northingDigits = (iy - square * Int64(yh)) / divisor
        }
        return ref
    }

    /// The two letters of the 100 km square that holds a UTM easting/northing (northing
    /// with the 10,000 km false northing in the south). Nil outside 100–900 km easting.
    /// The row letter cycles every 2,000 km; even zones are offset by five letters.
    public static func squareLetters(zone: Int, easting: Double, northing: Double) -> (
        column: Character, row: Character
    )? {
        guard (1...60).contains(zone), easting >= 100_000, easting < 900_000,
            Swift.abs(northing) < 1e9
        else { return nil }
        let xh = Int(easting / MGRSLetters.tile)
        var yh = Int((northing / MGRSLetters.tile).rounded(.down)) % MGRSLetters.utmRowPeriod
        if yh < 0 { yh += MGRSLetters.utmRowPeriod }
        let shift = (zone - 1) & 1 == 1 ? MGRSLetters.evenZoneRowShift : 0
        return (
            letter(MGRSLetters.utmColumns[(zone - 1) % 3][xh - 1]),
            letter(MGRSLetters.utmRows[(yh + shift) % MGRSLetters.utmRowPeriod])
        )
    }

    /// The two letters of the UPS 100 km square that holds an easting/northing near the
    /// north (`north` true) or south pole; nil outside the UPS squares (north 1,300–2,700 km,
    /// south 800–3,200 km on both axes).
    public static func upsSquareLetters(north: Bool, easting: Double, northing: Double) -> (
        column: Character, row: Character
    )? {
        let minIndex = north ? MGRSLetters.upsNorthMin : MGRSLetters.upsSouthMin
        let maxIndex = north ? MGRSLetters.upsNorthMax : MGRSLetters.upsSouthMax
        guard easting >= 0, easting < 1e7, northing >= 0, northing < 1e7 else { return nil }
        let xh = Int((easting / MGRSLetters.tile).rounded(.down))
        let yh = Int((northing / MGRSLetters.tile).rounded(.down))
        guard (minIndex..<maxIndex).contains(xh), (minIndex..<maxIndex).contains(yh) else { return nil }
        let east = xh >= MGRSLetters.upsEastingSplit
        let band = (north ? 2 : 0) + (east ? 1 : 0)
        return (
            letter(MGRSLetters.upsColumns[band][xh - (east ? MGRSLetters.upsEastingSplit : minIndex)]),
            letter(MGRSLetters.upsRows[north ? 1 : 0][yh - minIndex])
        )
    }

    /// The grid zone designator of a UTM cell: `18S`, `01C`... (two-digit zone).
    public static func gridZoneDesignator(zone: Int, band: LatitudeBand) -> String {
        (zone < 10 ? "0" : "") + String(zone) + String(band.letter)
    }

    /// The UPS grid zone designator: A (south, west of the 0°/180° meridian), B (south,
    /// east), Y (north, west), Z (north, east). The meridians 0° and ±180° themselves are
    /// east: their UPS easting is exactly 2,000 km, where the eastern squares begin.
    public static func upsGridZoneDesignator(north: Bool, longitude: Double) -> Character {
        let lon = AngleMath.normalize(longitude)
        let east = lon >= 0 || lon == -180
        return letter(MGRSLetters.upsBands[(north ? 2 : 0) + (east ? 1 : 0)])
    }

    /// Reads an MGRS reference (either case; spaces are not allowed, see `USNG.parse`)
    /// and returns the UTM/UPS coordinate of the square's centre (`centre` true, as
    /// GeoConvert does) or of its south-west corner. A grid zone alone gives a
    /// representative point of the zone: its central meridian (4°E for 31V) at the middle
    /// of the band, or 86° of latitude on the 90° meridian for UPS.
    public static func decode(_ text: String, centre: Bool = true) throws(GeodesyError) -> (
        coordinate: UTMCoordinate, digits: Int
    ) {
        let s = Array(text.utf8)
        func fail(_ reason: String) -> GeodesyError { .invalidGridReference(text, reason: reason) }
        var p = 0
        var zone = 0
        while p < s.count, let d = digit(s[p]) {
            if p == 2 { throw fail("more than 2 digits at the start") }
            zone = 10 * zone + d
            p += 1
        }
        if p > 0 && !(1...60).contains(zone) { throw fail("zone \(zone) is not in 1...60") }
        guard p < s.count else { throw fail("too short") }
        let utm = p > 0
        let bandLetter = upper(s[p])
        p += 1
        guard let band = (utm ? LatitudeBand.letters : MGRSLetters.upsBands).firstIndex(of: bandLetter) else {
            throw fail("band letter \(letter(bandLetter)) is not in \(utm ? "C...X (no I or O)" : "A, B, Y, Z")")
        }
        let north = band >= (utm ? 10 : 2)
        let tile = MGRSLetters.tile
        if p == s.count {
            // Grid zone only: a representative point. One degree of meridian is ≈ 1e7 / 90 m.
            let degree = 1e7 / (90 * tile)
            var x: Double
            var y: Double
            if utm {
                x = ((zone == 31 && band == 17) ? 4 : 5) * tile
                y = (8 * (Double(band) - 9.5) * degree + 0.5).rounded(.down) * tile + (north ? 0 : 1e7)
            } else {
                x =
                    ((band & 1 == 1 ? 1 : -1) * (4 * degree + 0.5).rounded(.down)
                        + Double(MGRSLetters.upsEastingSplit)) * tile
                y = Double(MGRSLetters.upsEastingSplit) * tile
            }
            return (UTMCoordinate(zone: zone, isNorth: north, easting: x, northing: y), -1)
        }
        guard s.count - p >= 2 else { throw fail("missing the row letter") }
        let columns = utm ? MGRSLetters.utmColumns[(zone - 1) % 3] : MGRSLetters.upsColumns[band]
        let rows = utm ? MGRSLetters.utmRows : MGRSLetters.upsRows[north ? 1 : 0]
        guard var column = columns.firstIndex(of: upper(s[p])) else {
            throw fail(
                "column letter \(letter(upper(s[p]))) is not used in \(utm ? "zone \(zone)" : "UPS band \(letter(bandLetter))")"
            )
        }
        guard var row = rows.firstIndex(of: upper(s[p + 1])) else {
            throw fail(
                "row letter \(letter(upper(s[p + 1]))) is not used in \(utm ? "UTM" : "UPS \(north ? "north" : "south")")"
            )
        }
        p += 2
        if utm {
            if (zone - 1) & 1 == 1 {
                row = (row + MGRSLetters.utmRowPeriod - MGRSLetters.evenZoneRowShift) % MGRSLetters.utmRowPeriod
            }
            row = MGRSLetters.utmRow(band: band - 10, column: column, rowLetter: row)
            if row == MGRSLetters.utmSouthMaxRow {
                throw fail(
                    "square \(letter(upper(s[p - 2])))\(letter(upper(s[p - 1]))) is not in grid zone \(zone)\(letter(bandLetter))"
                )
            }
            row = north ? row : row + 100
            column += MGRSLetters.utmMinColumn
        } else {
            column +=
                band & 1 == 1
                ? MGRSLetters.upsEastingSplit
                : (north ? MGRSLetters.upsNorthMin : MGRSLetters.upsSouthMin)
            row += north ? MGRSLetters.upsNorthMin : MGRSLetters.upsSouthMin
        }
        let rest = s.count - p
        if let bad = s[p...].first(where: { digit($0) == nil }) {
            throw fail("'\(letter(bad))' where a digit was expected")
        }
        if rest % 2 == 1 { throw fail("odd number of digits (\(rest))") }
        let digits = rest / 2
        if digits > maxDigits { throw fail("more than \(2 * maxDigits) digits") }
        var unit = 1.0
        var x1 = Double(column)
        var y1 = Double(row)
        for i in 0..<digits {
            unit *= 10
            x1 = 10 * x1 + Double(digit(s[p + i])!)
            y1 = 10 * y1 + Double(digit(s[p + i + digits])!)
        }
        if centre {
            unit *= 2
            x1 = 2 * x1 + 1
            y1 = 2 * y1 + 1
        }
        return (
            UTMCoordinate(
                zone: zone, isNorth: north, easting: (tile * x1) / unit,
                northing: (tile * y1) / unit), digits
        )
    }

    /// Reads an MGRS reference and returns the latitude and longitude of the square's centre.
    public static func position(_ text: String) throws(GeodesyError) -> GeoPosition {
        try UTM.reverse(decode(text).coordinate)
    }

    // MARK: - Helpers

    /// Brings a coordinate into the MGRS squares of its zone: a value exactly on the upper
    /// limit moves down by a few nanometres, and a UTM northing on the wrong side of the
    /// equator changes hemisphere. Throws outside the MGRS limits.
    static func fold(utm: Bool, north: inout Bool, x: inout Double, y: inout Double) throws(GeodesyError) {
        // The smallest step below 1e7 m (≈ 1.9 nm): 2^-(53 - 25).
        let eps = 1.0 / Double(1 << 28)
        let tile = MGRSLetters.tile
        let limits = UTM.limits(zone: utm ? 1 : 0, north: north, slop: false)
        let ix = Int((x / tile).rounded(.down))
        let iy = Int((y / tile).rounded(.down))
        let e0 = Int(limits.e0 / tile)
        let e1 = Int(limits.e1 / tile)
        let n0 = Int(limits.n0 / tile)
        let n1 = Int(limits.n1 / tile)
        if !(ix >= e0 && ix < e1) {
            if ix == e1 && x == limits.e1 {
                x -= eps
            } else {
                throw .coordinateOutOfRange(
                    axis: "easting", value: x, system: "MGRS/" + limits.system, range: limits.e0...limits.e1)
            }
        }
        if !(iy >= n0 && iy < n1) {
            if iy == n1 && y == limits.n1 {
                y -= eps
            } else {
                throw .coordinateOutOfRange(
                    axis: "northing", value: y, system: "MGRS/" + limits.system, range: limits.n0...limits.n1)
            }
        }
        if utm {
            if north && iy < MGRSLetters.utmNorthMinRow {
                north = false
                y += WGS84.utmSouthFalseNorthing
            } else if !north && iy >= MGRSLetters.utmSouthMaxRow {
                if y == WGS84.utmSouthFalseNorthing {
                    y -= eps  // on the equator: stay in the south
                } else {
                    north = true
                    y -= WGS84.utmSouthFalseNorthing
                }
            }
        }
    }

    @inline(__always) static func letter(_ ascii: UInt8) -> Character { Character(Unicode.Scalar(ascii)) }
    @inline(__always) static func upper(_ c: UInt8) -> UInt8 { (c >= 97 && c <= 122) ? c - 32 : c }
    @inline(__always) static func digit(_ c: UInt8) -> Int? { (c >= 48 && c <= 57) ? Int(c - 48) : nil }
}
