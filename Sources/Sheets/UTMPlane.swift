import Foundation
import Geodesy
import MapModel
import Render

/// The plane of one UTM zone, for drawing a sheet in: plane metres are the zone's easting
/// and northing (false origins included), so grid lines at round values are straight lines
/// at round plane coordinates, square to the sheet's frame, and the scale is true on the grid.
///
/// Features are stored in Web Mercator metres; each vertex goes Web Mercator -> longitude and
/// latitude (exact: Web Mercator keeps the WGS84 longitude and latitude it was made from) ->
/// transverse Mercator (Krüger's series, nanometre accurate across and well beyond the zone).
public struct UTMPlane: PlaneProjection, Equatable {
    public let zone: Int
    public let isNorth: Bool

    public init(zone: Int, isNorth: Bool) {
        self.zone = zone
        self.isNorth = isNorth
    }

    /// The standard zone of a position (Norway and Svalbard exceptions included); the
    /// hemisphere from the latitude's sign.
    public init(containing latitude: Double, longitude: Double) throws(SheetError) {
        guard latitude >= -80, latitude < 84, let zone = UTM.standardZone(latitude: latitude, longitude: longitude),
            zone != UTM.upsZone
        else {
            throw .outsideUTM(latitude: latitude)
        }
        self.init(zone: zone, isNorth: latitude >= 0)
    }

    public var identifier: String { "UTM \(zone)\(isNorth ? "N" : "S")" }

    /// WGS 84 / UTM zone: EPSG 326zz north, 327zz south.
    public var crsDefinition: String? { "EPSG:\(isNorth ? 32600 + zone : 32700 + zone)" }

    public var centralMeridian: Double { UTM.centralMeridian(zone: zone) }

    public func forward(_ p: PlanePoint) -> PlanePoint {
        project(latitude: Geodesy.WebMercator.latitude(y: p.y), longitude: Geodesy.WebMercator.longitude(x: p.x))
    }

    public func inverse(_ p: PlanePoint) -> PlanePoint {
        let g = unproject(p)
        return PlanePoint(
            x: Geodesy.WebMercator.x(longitude: g.longitude), y: Geodesy.WebMercator.y(latitude: g.latitude))
    }

    /// Longitude and latitude (degrees) to plane metres.
    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        let c = UTM.project(GeoPosition(latitude: latitude, longitude: longitude), zone: zone, north: isNorth)
        return PlanePoint(x: c.easting, y: c.northing)
    }

    /// Plane metres to longitude and latitude, with the grid convergence and point scale there.
    public func unproject(_ p: PlanePoint) -> UnprojectedPoint {
        UTM.unproject(UTMCoordinate(zone: zone, isNorth: isNorth, easting: p.x, northing: p.y))
    }
}
