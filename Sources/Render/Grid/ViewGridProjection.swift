import Geodesy
import Grids

/// The grid's plane for a view: global pixels of the view's plane at its resolution. Web
/// Mercator for renders and tiles; for views in another plane (sheets in UTM), positions go
/// through Web Mercator metres and the plane, as features do, so the grid sits on the map.
struct ViewGridProjection: GridProjection {
    let resolution: Double
    let plane: (any PlaneProjection)?

    init(view: View) {
        resolution = view.resolution
        plane = view.plane
    }

    func project(latitude: Double, longitude: Double) -> PlanePoint {
        var p = WebMercator.forward(latitude: latitude, longitude: longitude)
        if let plane {
            let q = plane.forward(p.x, p.y)
            p = PlanePoint(x: q.x, y: q.y)
        }
        return PlanePoint(x: (p.x + WebMercator.halfWorld) / resolution, y: (WebMercator.halfWorld - p.y) / resolution)
    }

    func unproject(_ point: PlanePoint) -> GeoPosition {
        var x = point.x * resolution - WebMercator.halfWorld
        var y = WebMercator.halfWorld - point.y * resolution
        if let plane { (x, y) = plane.inverse(x, y) }
        return WebMercator.inverse(x: x, y: y)
    }

    /// Plane metres are ground metres where the plane is true to scale (the equator of Web
    /// Mercator, the central meridian of a UTM sheet).
    var pixelsPerMetre: Double { 1 / resolution }

    /// Features are stored in Web Mercator, which stops at ±85.0511°.
    var latitudeRange: ClosedRange<Double> { -WebMercator.maxLatitude...WebMercator.maxLatitude }
}
