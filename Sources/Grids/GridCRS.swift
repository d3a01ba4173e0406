import Geodesy

/// A projected coordinate reference system whose grid Grids draws: lines of constant easting
/// and northing (a British National Grid, a State Plane zone), labelled in metres as UTM lines
/// are. The conversion comes from a module that knows PROJ (Render wraps its `ProjectedPlane`),
/// so that Grids stays free of C libraries.
///
/// Coordinates are the CRS's easting and northing in metres (a CRS counted in feet is scaled to
/// metres), and `GridRequest.crs` with a UTM-family type draws them at UTM's levels: 100 km,
/// 10 km, 1 km, 100 m and 10 m.
public protocol GridCRS: Sendable {
    /// `EPSG:27700`: the `zone` of every line of the grid.
    var label: String { get }
    /// Easting and northing (metres) to longitude and latitude; infinite where the CRS has no
    /// position for them.
    func position(easting: Double, northing: Double) -> GeoPosition
    /// Longitude and latitude to easting and northing (metres); infinite where the CRS cannot
    /// show the position.
    func coordinates(latitude: Double, longitude: Double) -> PlanePoint
}
