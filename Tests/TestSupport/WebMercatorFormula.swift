import Foundation
import Geodesy

/// The Web Mercator formula written out (EPSG:3857 on the WGS 84 equatorial radius), as an
/// independent reference for where the renderer puts a position.
public enum WebMercatorFormula {
    /// Global pixels at `resolution` metres a pixel: x east from 180°W, y down from the north
    /// edge of the square world.
    public static func pixel(latitude: Double, longitude: Double, resolution: Double) -> PlanePoint {
        let r = 6_378_137.0
        let half = Double.pi * r
        let x = r * longitude * .pi / 180
        let y = r * log(tan(.pi / 4 + latitude * .pi / 360))
        return PlanePoint(x: (x + half) / resolution, y: (half - y) / resolution)
    }

    public static func distance(_ a: PlanePoint, _ b: PlanePoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}
