import Geodesy
import Grids
import MapModel
import Render

/// The plane Grids generates a sheet's grid in: the sheet's UTM zone, in units of a tenth of
/// a millimetre of paper (x east, y down), so that Grids' densification to a fraction of a
/// "pixel" keeps curved lines within 0.02 mm of the true curve. Positions are a pure function
/// of latitude and longitude, as `GridProjection` asks.
struct SheetGridProjection: GridProjection {
    let plane: UTMPlane
    /// Plane metres per unit.
    let metresPerUnit: Double
    static let unitsPerMillimetre = 10.0

    init(plane: UTMPlane, metresPerMillimetre: Double) {
        self.plane = plane
        metresPerUnit = metresPerMillimetre / SheetGridProjection.unitsPerMillimetre
    }

    func project(latitude: Double, longitude: Double) -> PlanePoint {
        let p = plane.project(latitude: latitude, longitude: longitude)
        return PlanePoint(x: p.x / metresPerUnit, y: -p.y / metresPerUnit)
    }

    func unproject(_ point: PlanePoint) -> GeoPosition {
        let p = plane.unproject(point.x * metresPerUnit, -point.y * metresPerUnit)
        return GeoPosition(latitude: p.latitude, longitude: p.longitude)
    }

    /// The grid is true to scale on the plane (UTM's scale factor aside, as the sheet's is).
    var pixelsPerMetre: Double { 1 / metresPerUnit }

    var latitudeRange: ClosedRange<Double> { -90...90 }

    /// A rectangle of plane metres (y north) as a rectangle of this plane.
    func rect(of extent: Rect) -> Rect {
        Rect(
            minX: extent.minX / metresPerUnit, minY: -extent.maxY / metresPerUnit,
            maxX: extent.maxX / metresPerUnit, maxY: -extent.minY / metresPerUnit)
    }

    /// A point of this plane on the page.
    func page(_ point: PlanePoint, _ transform: FrameTransform) -> PagePoint {
        transform.page(point.x * metresPerUnit, -point.y * metresPerUnit)
    }
}
