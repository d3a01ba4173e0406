/// The text forms `meridian coord` reads and writes, with GeoConvert's conventions.
public enum CoordinateFormat: String, CaseIterable, Sendable {
    /// Decimal degrees, `LAT LON`: `33.30000 44.40000`.
    case dd
    /// Degrees, minutes, seconds: `33°18'00.0"N 044°24'00.0"E`.
    case dms
    /// UTM/UPS: `38n 444140 3684706`, UPS `n 2000000 2000000`.
    case utm
    /// MGRS: `38SMB4414084706`.
    case mgrs
    /// USNG: `38S MB 44140 84706`.
    case usng
}

/// A position read from text, kept the way GeoConvert keeps it: the latitude and longitude
/// and the UTM/UPS coordinate in the zone the input named (UTM and MGRS input) or in the
/// standard zone (latitude/longitude input).
public struct ParsedPosition: Hashable, Sendable {
    public var position: GeoPosition
    public var utm: UTMCoordinate
}

/// Parsing and printing of whole coordinate lines.
public enum CoordinateText {
    /// Reads one position. `format` nil guesses from the fields (split on spaces, tabs and
    /// commas): one field is MGRS; a grid zone followed by two letters is USNG; three
    /// fields with a zone+hemisphere first or last are UTM/UPS; two are `LAT LON`.
    /// With `.dd` a line of 4 or 6 fields is read as two DMS angles of 2 or 3 fields each.
    public static func parse(_ line: String, as format: CoordinateFormat?) throws(GeodesyError) -> ParsedPosition {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        guard !fields.isEmpty else { throw .invalidLine("", reason: "empty line") }
        switch format ?? guess(fields) {
        case .dd, .dms:
            guard fields.count % 2 == 0, fields.count <= 6 else {
                throw .invalidLine(line, reason: "expected LAT LON")
            }
            let half = fields.count / 2
            let position = try AngleParser.parse(
                latitude: fields[..<half].joined(separator: " "),
                longitude: fields[half...].joined(separator: " "))
            return ParsedPosition(position: position, utm: try UTM.forward(position))
        case .utm:
            return try parseUTM(fields, line: line)
        case .mgrs, .usng:
            let utm = try USNG.decode(fields.joined(separator: " ")).coordinate
            return ParsedPosition(position: try UTM.reverse(utm), utm: utm)
        }
    }

    /// Writes a position. `precision` means what GeoConvert's `-p` means: 0 is 1 m (UTM
    /// metres, 5 MGRS digits per axis, DD 5 decimals, DMS tenths of seconds), each step one
    /// decimal digit more (positive) or less (negative).
    public static func format(_ p: ParsedPosition, as format: CoordinateFormat, precision: Int) throws(GeodesyError)
        -> String
    {
        switch format {
        case .dd:
            let decimals = Swift.max(0, Swift.min(9, precision) + 5)
            return AngleFormat.decimalDegrees(p.position.latitude, kind: .plain, decimals: decimals) + " "
                + AngleFormat.decimalDegrees(p.position.longitude, kind: .plain, decimals: decimals)
        case .dms:
            let total = Swift.max(-5, Swift.min(10, precision)) + 5
            let trailing: DMSUnit = total < 2 ? .degree : total < 4 ? .minute : .second
            let decimals = total < 2 ? total : total < 4 ? total - 2 : total - 4
            return AngleFormat.dms(p.position.latitude, kind: .latitude, trailing: trailing, decimals: decimals) + " "
                + AngleFormat.dms(p.position.longitude, kind: .longitude, trailing: trailing, decimals: decimals)
        case .utm:
            return utmText(p.utm, precision: precision)
        case .mgrs, .usng:
            let digits = Swift.max(-1, Swift.min(MGRS.maxDigits, precision + 5))
            let ref = try MGRS.reference(p.utm, latitude: p.position.latitude, digits: digits)
            return format == .mgrs ? ref.mgrs : ref.usng
        }
    }

    /// `38n 444140 3684706` (zone two digits wide), `n 2000000 2000000` for UPS, with
    /// `precision` decimals (negative: rounded to 10^-precision m, zeros written).
    public static func utmText(_ c: UTMCoordinate, precision: Int) -> String {
        let prec = Swift.max(-5, Swift.min(9, precision))
        var zone = c.isUPS ? "" : (c.zone < 10 ? "0" : "") + String(c.zone)
        zone += c.isNorth ? "n" : "s"
        func axis(_ v: Double) -> String {
            if prec >= 0 { return DecimalFormat.fixed(v, decimals: prec) }
            var scale = 1.0
            for _ in 0..<(-prec) { scale *= 10 }
            // A value that rounds to zero is written "0", not "0000" (as GeoConvert does).
            let zeros = Swift.abs(v / scale) > 0.5 ? String(repeating: "0", count: -prec) : ""
            return DecimalFormat.fixed(v / scale, decimals: 0) + zeros
        }
        return zone + " " + axis(c.easting) + " " + axis(c.northing)
    }

    /// Reads a UTM/UPS zone with hemisphere: `38n`, `38N`, `09s`, `38north`; `n`, `s`,
    /// `north` or `south` alone for UPS. Returns the zone (0 for UPS) and hemisphere.
    public static func parseZone(_ text: String) throws(GeodesyError) -> (zone: Int, north: Bool) {
        let lower = text.lowercased()
        let digits = lower.prefix(while: { $0.isASCII && $0.isNumber })
        let hemisphere = lower.dropFirst(digits.count)
        let north: Bool
        switch hemisphere {
        case "n", "north": north = true
        case "s", "south": north = false
        default: throw .invalidUTM(text, reason: "zone must be a number 1...60 and n or s (ex: 38n, 09s, n)")
        }
        if digits.isEmpty { return (UTM.upsZone, north) }
        guard digits.count <= 2, let zone = Int(digits), (1...60).contains(zone) else {
            throw .invalidUTM(text, reason: "zone \(digits) is not in 1...60")
        }
        return (zone, north)
    }

    private static func parseUTM(_ fields: [String], line: String) throws(GeodesyError) -> ParsedPosition {
        guard fields.count == 3 else { throw .invalidUTM(line, reason: "expected ZONE EASTING NORTHING") }
        let zoneFirst = fields[0].last?.isLetter ?? false
        guard zoneFirst || (fields[2].last?.isLetter ?? false) else {
            throw .invalidUTM(
                line, reason: "neither \(fields[0]) nor \(fields[2]) is a zone and hemisphere (ex: 38n, 09s, n)")
        }
        let (zone, north) = try parseZone(zoneFirst ? fields[0] : fields[2])
        let numbers = zoneFirst ? [fields[1], fields[2]] : [fields[0], fields[1]]
        guard let e = Double(numbers[0]), let n = Double(numbers[1]), e.isFinite, n.isFinite else {
            throw .invalidUTM(line, reason: "easting and northing must be numbers")
        }
        var utm = UTMCoordinate(zone: zone, isNorth: north, easting: e, northing: n)
        let position = try UTM.reverse(utm)
        // A northing given in the other hemisphere's numbering is moved into the latitude's
        // own (either is fine on the equator), as GeoConvert does.
        let lat = position.latitude
        if lat != 0 && !lat.isNaN && north != (lat >= 0) {
            guard !utm.isUPS else { throw .invalidUTM(line, reason: "hemisphere does not match the pole") }
            utm.northing += (north ? 1 : -1) * WGS84.utmSouthFalseNorthing
            utm.isNorth.toggle()
        }
        return ParsedPosition(position: position, utm: utm)
    }

    private static func guess(_ fields: [String]) -> CoordinateFormat {
        if fields.count == 1 { return .mgrs }
        if (2...4).contains(fields.count), isGridZone(fields[0]),
            fields[1].count == 2, fields[1].allSatisfy({ $0.isASCII && $0.isLetter })
        {
            return .usng
        }
        if fields.count == 3 { return .utm }
        return .dd
    }

    /// `18S`, `4Q`, or a UPS band letter alone (`A`, `B`, `Y`, `Z`).
    private static func isGridZone(_ s: String) -> Bool {
        guard let last = s.last, last.isASCII, last.isLetter else { return false }
        let zone = s.dropLast()
        if zone.isEmpty { return "ABYZabyz".contains(last) }
        return zone.count <= 2 && zone.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
