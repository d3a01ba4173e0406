import Geodesy
import Grids

/// The grid's plane for a view: the view's global pixels. Web Mercator for renders and
/// tiles; for views in another plane (sheets in UTM), positions go through Web Mercator
/// metres and the plane, as features do, so the grid sits on the map.
struct ViewGridProjection: GridProjection {
    let view: View

    func project(latitude: Double, longitude: Double) -> PlanePoint {
        view.globalPixel(WebMercator.forward(latitude: latitude, longitude: longitude))
    }

    func unproject(_ point: PlanePoint) -> GeoPosition {
        WebMercator.inverse(view.mercator(globalPixel: point))
    }

    /// Plane metres are ground metres where the plane is true to scale (the equator of Web
    /// Mercator, the central meridian of a UTM sheet).
    var pixelsPerMetre: Double { view.pixelsPerMetre }

    /// Features are stored in Web Mercator, which stops at ±85.0511°.
    var latitudeRange: ClosedRange<Double> { -WebMercator.maxLatitude...WebMercator.maxLatitude }

    /// Renders and tiles are Web Mercator; a sheet's plane is not.
    var isMercator: Bool { view.plane == nil }

    /// Web Mercator global pixels depend on the resolution alone (the view's origin only
    /// moves its image pixels).
    var chunkCacheScale: Double? { view.plane == nil ? view.resolution : nil }

    /// Global pixels to Web Mercator metres scale each axis alone; another plane's inverse
    /// need not.
    var isSeparable: Bool { view.plane == nil }
}
