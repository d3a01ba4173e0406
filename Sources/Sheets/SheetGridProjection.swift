import Geodesy
import Grids
import MapModel
import Render

/// The plane Grids generates a sheet's grid in: the sheet's UTM zone, in units of a tenth of
/// a millimetre of paper (x east, y down), so that Grids' densification to a fraction of a
/// "pixel" keeps curved lines within 0.02 mm of the true curve. Positions are a pure function
/// of latitude and longitude, as `GridProjection` asks.
struct SheetGridProjection: GridProjection {
    let plane: any SheetPlane
    /// Plane metres to units, from the plane's own origin.
    let transform: PlaneTransform
    static let unitsPerMillimetre = 10.0

    init(plane: any SheetPlane, metresPerMillimetre: Double) {
        self.plane = plane
        transform = PlaneTransform(
            origin: PlanePoint(x: 0, y: 0), metresPerUnit: metresPerMillimetre / SheetGridProjection.unitsPerMillimetre)
    }

    func project(latitude: Double, longitude: Double) -> PlanePoint {
        transform.global(plane.project(latitude: latitude, longitude: longitude))
    }

    func unproject(_ point: PlanePoint) -> GeoPosition {
        plane.unproject(transform.plane(global: point)).position
    }

    /// The grid is true to scale on the plane (UTM's scale factor aside, as the sheet's is).
    var pixelsPerMetre: Double { 1 / transform.metresPerUnit }

    var latitudeRange: ClosedRange<Double> { -90...90 }

    /// A rectangle of plane metres (y north) as a rectangle of this plane.
    func rect(of extent: Rect) -> Rect { transform.global(extent) }

    /// A point of this plane on the page.
    func page(_ point: PlanePoint, _ frame: FrameTransform) -> PlanePoint {
        frame.page(transform.plane(global: point))
    }
}
