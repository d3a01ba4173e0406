/// Converts coordinates of a source's coordinate reference system into Web Mercator metres,
/// the plane features are stored in. MapModel knows only longitude/latitude WGS84 (Geodesy's
/// Web Mercator); DataSources implements every other CRS with PROJ.
public protocol CoordinateTransform {
    /// Converts interleaved x, y pairs in place; throws a `TransformFailure` naming the first
    /// position it cannot convert.
    func toWebMercator(_ coordinates: inout [Double]) throws
}

/// Finds the transform for a CRS named in the data (GeoJSON's legacy `crs` member) or by the
/// layer's `srs` key.
public protocol CRSResolver {
    /// nil when `name` is longitude/latitude WGS84 (read as GeoJSON always is); throws a
    /// `TransformFailure` for an unknown or unusable CRS.
    func transform(forCRS name: String) throws -> (any CoordinateTransform)?
}

/// Why coordinates could not be converted; the reader adds the file and the place.
public struct TransformFailure: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How the GeoJSON reader takes positions.
public enum GeoJSONCoordinates {
    /// Longitude/latitude, unless the file's `crs` member names another CRS, which `resolver`
    /// turns into a transform (without a resolver, such a file is an error).
    case fromFile(resolver: (any CRSResolver)?)
    /// In the CRS given by the layer's `srs`, whatever the file says: nil for longitude/latitude.
    case given((any CoordinateTransform)?)
}
