import Foundation

/// Web Mercator (EPSG:3857): the spherical Mercator of web tiles, on a sphere of WGS84's
/// equatorial radius. x runs east from 0° longitude, y north from the equator, in metres.
public enum WebMercator {
    /// The latitude at which the projected square closes, ±85.0511287798066°
    /// (atan(sinh π)): y equals x at 180°.
    public static let maxLatitude = 85.0511287798066
    /// Half the width of the projected world, π·a ≈ 20,037,508.34 m.
    public static let halfWorld = Double.pi * WGS84.equatorialRadius

    /// Projects a position; the latitude is clamped to ±`maxLatitude` first, so the poles
    /// land on the edge of the square instead of at infinity. Longitudes outside
    /// [-180, 180] are not wrapped (a line crossing the antimeridian stays continuous).
    public static func forward(latitude: Double, longitude: Double) -> PlanePoint {
        PlanePoint(x: x(longitude: longitude), y: y(latitude: latitude))
    }

    /// The inverse of `forward`: metres to a position in degrees.
    public static func inverse(_ p: PlanePoint) -> GeoPosition {
        GeoPosition(latitude: latitude(y: p.y), longitude: longitude(x: p.x))
    }

    /// Metres per pixel of XYZ tiles `tileSize` pixels wide at zoom `zoom`.
    public static func resolution(zoom: Int, tileSize: Int = 256) -> Double {
        2 * halfWorld / (Double(tileSize) * Foundation.pow(2, Double(zoom)))
    }

    /// x alone, for code that projects coordinates one axis at a time.
    @inline(__always) public static func x(longitude: Double) -> Double {
        WGS84.equatorialRadius * longitude * AngleMath.degree
    }

    /// y alone. y = a·asinh(tan φ), the textbook a·ln(tan(π/4 + φ/2)) without its
    /// cancellation near the equator.
    @inline(__always) public static func y(latitude: Double) -> Double {
        let lat = Swift.max(-maxLatitude, Swift.min(maxLatitude, latitude))
        return WGS84.equatorialRadius * Foundation.asinh(Foundation.tan(lat * AngleMath.degree))
    }

    public static func longitude(x: Double) -> Double { x / WGS84.equatorialRadius / AngleMath.degree }

    public static func latitude(y: Double) -> Double {
        Foundation.atan(Foundation.sinh(y / WGS84.equatorialRadius)) / AngleMath.degree
    }
}
