import DataSources
import Geodesy
import Grids

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

/// A grid of the CRS's own eastings and northings (`"grid": {"crs": "EPSG:27700"}`): Grids
/// walks its lines in plane metres, which are the CRS's coordinates scaled to metres.
extension ProjectedPlane: GridCRS {
    public func position(easting: Double, northing: Double) -> GeoPosition {
        unproject(PlanePoint(x: easting, y: northing))
    }

    public func coordinates(latitude: Double, longitude: Double) -> PlanePoint {
        project(latitude: latitude, longitude: longitude)
    }
}
