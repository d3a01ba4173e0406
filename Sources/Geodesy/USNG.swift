/// The US National Grid: MGRS on NAD83 (taken here as WGS84, which it matches to about a
/// metre), written with spaces between grid zone, square and digits: `18S UJ 23487 06483`.
public enum USNG {
    /// The USNG reference of a position with `digits` digits per axis (-1...11, as MGRS).
    public static func encode(_ position: GeoPosition, digits: Int = 5) throws(GeodesyError) -> String {
        try MGRS.reference(position, digits: digits).usng
    }

    /// Reads a USNG reference (`18S UJ 23487 06483`, `18S UJ 2348 0648`, `18S UJ`, `18S`;
    /// either case; the MGRS form without spaces is accepted too) and returns the UTM/UPS
    /// coordinate of the square's centre (or south-west corner) and the digits per axis.
    public static func decode(_ text: String, centre: Bool = true) throws(GeodesyError) -> (
        coordinate: UTMCoordinate, digits: Int
    ) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        // Easting and northing written apart must have as many digits each.
        if parts.count == 4, parts[2].count != parts[3].count {
            throw .invalidGridReference(text, reason: "easting and northing have different numbers of digits")
        }
        guard parts.count <= 4, !parts.isEmpty else {
            throw .invalidGridReference(text, reason: "expected 'zone square easting northing'")
        }
        do {
            return try MGRS.decode(parts.joined(), centre: centre)
        } catch .invalidGridReference(_, let reason) {
            throw .invalidGridReference(text, reason: reason)
        }
    }

    /// Reads a USNG reference and returns the latitude and longitude of the square's centre.
    public static func position(_ text: String) throws(GeodesyError) -> GeoPosition {
        try UTM.reverse(decode(text).coordinate)
    }
}
