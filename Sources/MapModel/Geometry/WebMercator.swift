import Foundation

/// Web Mercator (EPSG:3857) on the WGS84 semi-major axis, the projection of every map.
public enum WebMercator {
    public static let radius = 6_378_137.0
    /// Half the width of the world in metres: x runs from -halfWorld to +halfWorld.
    public static let halfWorld = Double.pi * radius
    /// The latitude where the square world ends: atan(sinh(pi)).
    public static let maxLatitude = 85.051128779806592

    public static func x(longitude: Double) -> Double {
        radius * longitude * .pi / 180
    }

    /// Latitudes beyond ±85.0511° are clamped to the edge of the square world.
    public static func y(latitude: Double) -> Double {
        let lat = max(-maxLatitude, min(maxLatitude, latitude)) * .pi / 180
        return radius * log(tan(.pi / 4 + lat / 2))
    }

    public static func longitude(x: Double) -> Double { x / radius * 180 / .pi }

    public static func latitude(y: Double) -> Double {
        (2 * atan(exp(y / radius)) - .pi / 2) * 180 / .pi
    }
}
