/// The four kinds of coordinate grid a map or sheet can carry. One enum for the map document,
/// the grid generator and the sheets (Geodesy is the module they all see); "no grid" is nil.
public enum GridType: String, CaseIterable, Sendable {
    /// Meridians and parallels (a graticule).
    case latlong
    /// UTM zones and easting/northing lines in each zone's own coordinates (UPS at the poles).
    case utm
    /// The Military Grid Reference System: grid zone designators, lettered 100 km squares, finer lines.
    case mgrs
    /// The US National Grid: MGRS on NAD83, which matches WGS84 to about a metre, so drawn as MGRS.
    case usng

    /// UTM, MGRS and USNG number their levels alike (0 zones, 1 100 km, 2 10 km, ...), so
    /// settings written for one level carry over between them; latitude/longitude levels do not.
    public var isUTMFamily: Bool { self != .latlong }

    /// How a sheet's notes name the grid: `MGRS`, `USNG`, `UTM`, `latitude/longitude`.
    public var displayName: String {
        switch self {
        case .latlong: return "latitude/longitude"
        case .utm: return "UTM"
        case .mgrs: return "MGRS"
        case .usng: return "USNG"
        }
    }
}

/// How latitude/longitude labels are written.
public enum LatLongLabelFormat: String, CaseIterable, Sendable {
    /// `45.5°N`, `75°W`; the graticule steps are decimal (0.5°, 0.1°, ...).
    case decimalDegrees
    /// `45°30'N`, `75°15'30"W`; the steps are whole minutes and seconds (30', 10', ...).
    case degreesMinutesSeconds
}

/// The unit of MGRS/USNG line labels (the value within the 100 km square).
public enum MGRSLabelUnit: String, CaseIterable, Sendable {
    /// Kilometres for lines 1 km apart or more (`23km`), metres below (`23400m`).
    case kilometersMeters
    /// Always metres (`23000m`).
    case meters
}

/// Lines every `x` (meridians, eastings) and `y` (parallels, northings) from an offset:
/// degrees for latitude/longitude (whole seconds of arc, or whole 0.0001° with decimal
/// degrees), whole metres for UTM, MGRS and USNG.
public struct GridInterval: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var offsetX: Double
    public var offsetY: Double

    public init(x: Double, y: Double, offsetX: Double = 0, offsetY: Double = 0) {
        self.x = x
        self.y = y
        self.offsetX = offsetX
        self.offsetY = offsetY
    }
}
