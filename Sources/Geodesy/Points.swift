// The value types that carry positions and projected points between the conversions.

/// A geographic position on WGS84, in degrees (latitude positive north, longitude positive east).
public struct GeoPosition: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "\(latitude) \(longitude)" }
}

/// A point of a plane: projected metres (x east, y north), pixels or page millimetres (x
/// right, y down). The one point type of every module.
public struct PlanePoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A point projected by a conformal projection, with the local distortion.
public struct ProjectedPoint: Hashable, Sendable {
    /// Easting and northing in metres, before any false origin is added.
    public var x: Double
    public var y: Double
    /// Meridian convergence γ in degrees: the bearing of grid north, clockwise from true north.
    public var convergence: Double
    /// Point scale k: projected distance over ellipsoidal distance.
    public var scale: Double
}

/// A geographic position recovered from projected coordinates, with the local distortion.
public struct UnprojectedPoint: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var convergence: Double
    public var scale: Double

    public init(latitude: Double, longitude: Double, convergence: Double, scale: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.convergence = convergence
        self.scale = scale
    }

    public var position: GeoPosition { GeoPosition(latitude: latitude, longitude: longitude) }
}
