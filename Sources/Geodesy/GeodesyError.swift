/// What went wrong in a conversion. Each case carries the values involved and prints as
/// one line, for example `latitude 91 is not in [-90, 90]`.
public enum GeodesyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A latitude outside [-90°, 90°] (or not a number).
    case latitudeOutOfRange(Double)
    /// A longitude that is not a finite number.
    case longitudeOutOfRange(Double)
    /// A UTM zone number outside 1...60 (0 means UPS where zones are accepted).
    case invalidZone(Int)
    /// The position lies too far from the zone (or pole) asked for.
    case outsideZone(latitude: Double, longitude: Double, zone: Int)
    /// A UTM/UPS easting or northing outside the range the system allows.
    case coordinateOutOfRange(axis: String, value: Double, system: String, range: ClosedRange<Double>)
    /// A grid reference (MGRS, USNG) that cannot be read.
    case invalidGridReference(String, reason: String)
    /// A latitude or longitude text that cannot be read.
    case invalidAngle(String, reason: String)
    /// A UTM/UPS text that cannot be read.
    case invalidUTM(String, reason: String)
    /// A line of text that is not a position in any form asked for.
    case invalidLine(String, reason: String)
    /// A precision outside what the format supports.
    case precisionOutOfRange(Int, allowed: ClosedRange<Int>)
    /// A W,S,E,N box with a value that is not a number, beyond -180,-90,180,90, or empty.
    case invalidBBox(west: Double, south: Double, east: Double, north: Double)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let lat):
            return "latitude \(DecimalFormat.shortest(lat)) is not in [-90, 90]"
        case .longitudeOutOfRange(let lon):
            return "longitude \(DecimalFormat.shortest(lon)) is not a finite number"
        case .invalidZone(let zone):
            return "UTM zone \(zone) is not in 1...60"
        case .outsideZone(let lat, let lon, let zone):
            let name = zone == 0 ? "UPS" : "UTM zone \(zone)"
            return
                "latitude \(DecimalFormat.shortest(lat)), longitude \(DecimalFormat.shortest(lon)) is out of range for \(name)"
        case .coordinateOutOfRange(let axis, let value, let system, let range):
            return "\(axis) \(DecimalFormat.shortest(value / 1000)) km is not in \(system) range "
                + "[\(DecimalFormat.shortest(range.lowerBound / 1000)) km, \(DecimalFormat.shortest(range.upperBound / 1000)) km]"
        case .invalidGridReference(let text, let reason):
            return "grid reference '\(text)': \(reason)"
        case .invalidAngle(let text, let reason):
            return "angle '\(text)': \(reason)"
        case .invalidUTM(let text, let reason):
            return "UTM/UPS '\(text)': \(reason)"
        case .invalidLine(let text, let reason):
            return text.isEmpty ? reason : "'\(text)': \(reason)"
        case .precisionOutOfRange(let p, let allowed):
            return "precision \(p) is not in \(allowed.lowerBound)...\(allowed.upperBound)"
        case .invalidBBox(let west, let south, let east, let north):
            let values = [west, south, east, north].map(DecimalFormat.shortest).joined(separator: ",")
            let problem = GeoBox.problem(west: west, south: south, east: east, north: north)?.text ?? "is a box"
            return "the bbox \(values) \(problem)"
        }
    }
}
