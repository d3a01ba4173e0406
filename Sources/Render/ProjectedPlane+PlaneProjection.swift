import DataSources
import Geodesy

/// A view can be drawn in the plane of any CRS PROJ knows (`meridian render --crs`): features,
/// stored in Web Mercator metres, go through longitude/latitude (exactly: Web Mercator keeps
/// the WGS84 longitude and latitude it was made from) into the CRS.
extension ProjectedPlane: PlaneProjection {
    /// The CRS as the user gave it (`EPSG:3035`).
    public var identifier: String { crs }

    public func forward(_ p: PlanePoint) -> PlanePoint {
        project(latitude: WebMercator.latitude(y: p.y), longitude: WebMercator.longitude(x: p.x))
    }

    /// Infinite where the plane point has no position (outside the projection's domain).
    public func inverse(_ p: PlanePoint) -> PlanePoint {
        let g = unproject(p)
        guard g.latitude.isFinite, g.longitude.isFinite else { return PlanePoint(x: .infinity, y: .infinity) }
        return WebMercator.forward(latitude: g.latitude, longitude: g.longitude)
    }
}
