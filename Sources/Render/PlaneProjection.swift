import Geodesy

/// A map plane other than Web Mercator for a view to be drawn in. Features are stored in Web
/// Mercator metres; a view with a plane converts each vertex on the way to the screen.
/// Printed sheets use this to draw in the UTM zone of their centre, where the scale is true
/// across the page.
public protocol PlaneProjection: Sendable {
    /// Names the plane, e.g. `UTM 18N`; views in planes with the same identifier are the same plane.
    var identifier: String { get }
    /// Web Mercator metres to plane metres (x east, y north).
    func forward(_ p: PlanePoint) -> PlanePoint
    /// Plane metres to Web Mercator metres.
    func inverse(_ p: PlanePoint) -> PlanePoint
    /// The plane's CRS as PROJ and GDAL name it (`EPSG:32618`), for warping rasters into it;
    /// nil when it has none, and raster layers cannot be drawn in it.
    var crsDefinition: String? { get }
}

extension PlaneProjection {
    public var crsDefinition: String? { nil }
}
