/// What a grid line follows. Easting and northing lines are in a zone's UTM or UPS
/// coordinates; boundaries are zone and band edges (meridians and parallels).
public enum GridAxis: String, CaseIterable, Sendable {
    case easting, northing, longitude, latitude, boundary

    /// Lines that run up and down the map and are labelled along the top and bottom edges.
    public var labelsOnHorizontalEdges: Bool { self == .easting || self == .longitude }
    /// Lines that run across the map and are labelled along the left and right edges.
    public var labelsOnVerticalEdges: Bool { self == .northing || self == .latitude }

    /// A small number for each axis (0-4), for hashing keys that hold one: an enum with a
    /// raw string value hashes that string.
    var hashCode: UInt64 {
        switch self {
        case .easting: 0
        case .northing: 1
        case .longitude: 2
        case .latitude: 3
        case .boundary: 4
        }
    }
}
