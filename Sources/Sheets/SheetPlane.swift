import DataSources
import Geodesy
import MapModel
import Render

/// The plane a sheet is drawn in: the UTM zone of its centre (`UTMPlane`, the default) or the
/// plane of a CRS the user names (`CRSSheetPlane`, `meridian sheet --crs EPSG:27700`). Plane
/// coordinates are metres, so the scale is exact on the plane's grid; what the sheet prints
/// about its projection (the notes, the scale caption, the north arrow's convergence) comes
/// from here.
///
/// UTM, MGRS and USNG grids are always those of one UTM zone, `zone`: on a UTM sheet they are
/// the plane's own straight lines; on a sheet in another CRS they are that zone's lines carried
/// into the plane, gently curved.
public protocol SheetPlane: PlaneProjection {
    /// The UTM zone whose grid the sheet prints (the zone of the sheet's centre).
    var zone: Int { get }
    /// The hemisphere of that zone's northings.
    var isNorth: Bool { get }
    /// Longitude and latitude (degrees, WGS84) to plane metres.
    func project(latitude: Double, longitude: Double) -> PlanePoint
    /// Plane metres to longitude and latitude, with the grid convergence and point scale there.
    func unproject(_ p: PlanePoint) -> UnprojectedPoint
    /// A plane point as easting and northing of `zone`, and back.
    func utmCoordinates(_ p: PlanePoint) -> PlanePoint
    func point(utm: PlanePoint) -> PlanePoint
    /// The first line of the notes: the projection and the datum.
    var projectionNote: String { get }
    /// The line under the scale: the grid on which the scale is exact.
    var scaleCaption: String { get }
    /// Refuses a frame the plane cannot carry at a true scale.
    func checkReach(extent: Rect, scale: Double, paper: Paper) throws(SheetError)
}

extension SheetPlane {
    public var centralMeridian: Double { UTM.centralMeridian(zone: zone) }

    /// `18N`: the zone as the notes name it.
    var zoneName: String { "\(zone)\(isNorth ? "N" : "S")" }

    /// The rectangle of `zone`'s eastings and northings that holds a rectangle of the plane
    /// (its edges walked: on a UTM sheet, the rectangle itself).
    func utmBounds(of extent: Rect) -> Rect {
        extent.boundsOfEdges(steps: 32, under: utmCoordinates)
    }
}

extension Sheet {
    /// The plane a sheet centred at a position is drawn in: the CRS asked for, else the UTM
    /// zone of the position.
    static func plane(_ crs: ProjectedPlane?, latitude: Double, longitude: Double) throws(SheetError)
        -> any SheetPlane
    {
        if let crs { return try CRSSheetPlane(crs, centreLatitude: latitude, centreLongitude: longitude) }
        return try UTMPlane(containing: latitude, longitude: longitude)
    }
}

extension UTMPlane: SheetPlane {
    public func utmCoordinates(_ p: PlanePoint) -> PlanePoint { p }
    public func point(utm: PlanePoint) -> PlanePoint { utm }

    public var projectionNote: String {
        let meridian = AngleFormat.dms(centralMeridian, kind: .longitude, trailing: .degree, style: .compact)
        return "Universal Transverse Mercator, \(identifier) (central meridian \(meridian)), WGS84."
    }

    public var scaleCaption: String { "Scale on the grid of UTM zone \(zoneName)" }

    public func checkReach(extent: Rect, scale: Double, paper: Paper) throws(SheetError) {
        try Sheet.checkReach(plane: self, extent: extent, scale: scale, paper: paper)
    }
}
