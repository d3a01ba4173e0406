import CPROJ
import Foundation
import Geodesy
import MapModel
import Synchronization

/// The plane of any coordinate reference system PROJ knows, for drawing a map in:
/// `ProjectedPlane(crs: "EPSG:3035")`. Plane coordinates are the CRS's easting and northing
/// in metres, whatever unit the CRS counts in, so that a view's metres per pixel, and the
/// scale denominator the OGC derives from them, keep their meaning:
///
/// - a projected CRS in feet (EPSG:2263, US survey feet) is scaled to metres;
/// - a geographic CRS (EPSG:4326, EPSG:4258) is drawn as plate carrée, one degree being
///   111,319.49 m (2π · 6,378,137 m / 360), the convention of the OGC's WorldCRS84Quad tile
///   matrix set: its scale denominators are those of the equator;
/// - axes are taken east then north (traditional GIS order), whatever order the CRS's
///   definition has; a CRS whose axes point west or south is mirrored so that east is right.
///
/// Positions go between longitude/latitude on WGS84 (EPSG:4326) and the CRS by the operation
/// `cs2cs EPSG:4326 CRS` uses. Points PROJ cannot convert (the far side of an azimuthal
/// projection) come back with infinite coordinates.
///
/// PROJ objects must not be used by two threads at once: the conversions are serialised by a
/// lock. A plane is shared freely; one render draws on one thread.
public final class ProjectedPlane: Sendable {
    /// The CRS as given.
    public let crs: String
    /// `EPSG:3035`, or the CRS's name when it has no identifier.
    public let label: String
    /// The CRS's name (`ETRS89-extended / LAEA Europe`).
    public let name: String
    /// True for a geographic CRS (drawn as plate carrée).
    public let isGeographic: Bool
    /// Metres per unit of the CRS's coordinates: 1 for metres, 0.3048006 for US survey feet,
    /// 111,319.49 for degrees.
    public let metresPerUnit: Double
    /// True when the plane is Web Mercator itself (EPSG:3857 and its aliases).
    public let isWebMercator: Bool
    /// The datum (`Ordnance Survey of Great Britain 1936`; a datum ensemble's name for
    /// WGS 84), and the projection method (`Transverse Mercator`; nil for a geographic CRS):
    /// what a printed sheet's notes say the map is drawn on.
    public let datum: String
    public let method: String?
    /// +1, or -1 for an axis pointing west or south.
    private let signs: (x: Double, y: Double)
    private let locked: Mutex<Conversion>

    /// One degree of a geographic CRS, in metres: the OGC's equatorial convention.
    public static let metresPerDegree = 2 * Double.pi * WGS84.equatorialRadius / 360

    /// The PROJ objects, used under the lock.
    private struct Conversion: ~Copyable {
        let context: ProjContext
        /// Longitude/latitude WGS84 to the CRS, normalised to east-north order.
        let operation: ProjObject
    }

    /// Throws `ProjectedPlane.Failure` for a code PROJ does not know, or a CRS that cannot be
    /// drawn in (geocentric, vertical, without a way to WGS84).
    public init(crs definition: String) throws(Failure) {
        let checked: SourceCRS
        do { checked = try SourceCRS(definition) } catch { throw Failure(message: error.message) }
        let context: ProjContext
        do { context = try ProjContext(for: "the CRS \(checked.label)") } catch {
            throw Failure(message: error.message)
        }
        guard let crs = context.object({ proj.proj_create($0, definition) }),
            let wgs84 = context.object({ proj.proj_create($0, "EPSG:4326") }),
            let webMercator = context.object({ proj.proj_create($0, "EPSG:3857") }),
            let operation = context.object({
                proj.proj_create_crs_to_crs_from_pj($0, wgs84.handle, crs.handle, nil, nil)
            }),
            let normalized = context.object({ proj.proj_normalize_for_visualization($0, operation.handle) })
        else {
            throw Failure(
                message: "\(checked.label) cannot be drawn in: \(context.takeError() ?? "PROJ finds no conversion")")
        }
        let axes = ProjectedPlane.horizontalAxes(crs, context)
        guard axes.count == 2 else {
            throw Failure(message: "\(checked.label) has no horizontal coordinate system to draw in")
        }
        self.crs = definition
        label = checked.label
        name = proj.proj_get_name(crs.handle).map { String(cString: $0) } ?? checked.label
        isGeographic = axes[0].isAngular
        // An angular unit's factor is radians per unit: times the equatorial radius, metres.
        metresPerUnit = axes[0].factor * (axes[0].isAngular ? WGS84.equatorialRadius : 1)
        // The normalised operation gives the east-west axis first.
        let eastWest = axes.first { $0.direction == "east" || $0.direction == "west" } ?? axes[0]
        let northSouth = axes.first { $0.direction == "north" || $0.direction == "south" } ?? axes[1]
        signs = (eastWest.direction == "west" ? -1 : 1, northSouth.direction == "south" ? -1 : 1)
        isWebMercator =
            proj.proj_is_equivalent_to_with_ctx(context.handle, crs.handle, webMercator.handle, PJ_COMP_EQUIVALENT) != 0
        (datum, method) = ProjectedPlane.datumAndMethod(crs, context)
        locked = Mutex(Conversion(context: context, operation: normalized))
    }

    /// The plane of a projected CRS, for what needs eastings and northings with a length on
    /// the ground (a sheet's scale, a grid in metres); a geographic CRS is refused.
    public static func projected(crs definition: String) throws(Failure) -> ProjectedPlane {
        let plane = try ProjectedPlane(crs: definition)
        guard !plane.isGeographic else {
            throw Failure(
                message: "\(plane.label) is a geographic CRS; eastings and northings need a projected CRS")
        }
        return plane
    }

    /// Why a plane cannot be made: one line, PROJ's reason at its end.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Longitude and latitude (degrees, WGS84) to plane metres; infinite where PROJ cannot
    /// convert the position.
    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        let c = locked.withLock { conversion in
            proj.proj_trans(conversion.operation.handle, PJ_FWD, proj.proj_coord(longitude, latitude, 0, 0))
        }
        return plane(x: c.xy.x, y: c.xy.y)
    }

    /// Plane metres to longitude and latitude (degrees, WGS84); infinite where PROJ cannot
    /// convert the point.
    public func unproject(_ p: PlanePoint) -> GeoPosition {
        let (x, y) = crsCoordinates(p)
        let c = locked.withLock { conversion in
            proj.proj_trans(conversion.operation.handle, PJ_INV, proj.proj_coord(x, y, 0, 0))
        }
        guard c.lp.lam.isFinite, c.lp.phi.isFinite else {
            return GeoPosition(latitude: .infinity, longitude: .infinity)
        }
        return GeoPosition(latitude: c.lp.phi, longitude: c.lp.lam)
    }

    /// Plane metres from the CRS's own coordinates (east, north in its unit), as a user gives
    /// them (`--bbox-crs`).
    public func plane(x: Double, y: Double) -> PlanePoint {
        guard x.isFinite, y.isFinite else {
            return PlanePoint(x: .infinity, y: .infinity)
        }
        return PlanePoint(x: signs.x * x * metresPerUnit, y: signs.y * y * metresPerUnit)
    }

    /// The CRS's own coordinates (east, north in its unit) of plane metres.
    public func crsCoordinates(_ p: PlanePoint) -> (x: Double, y: Double) {
        (signs.x * p.x / metresPerUnit, signs.y * p.y / metresPerUnit)
    }

    /// Plane metres to longitude and latitude, with the plane's distortion there: the
    /// convergence (the bearing of grid north from true north, degrees clockwise) and the
    /// scale along the meridian (plane distance over ellipsoidal distance), both by finite
    /// differences over a few metres, so they hold for any CRS, conformal or not.
    public func unprojectWithDistortion(_ p: PlanePoint) -> UnprojectedPoint {
        let g = unproject(p)
        let step = 1e-5  // degrees of latitude: about a metre
        let latitude = g.latitude > 89 ? g.latitude - step : g.latitude
        let a = project(latitude: latitude, longitude: g.longitude)
        let b = project(latitude: latitude + step, longitude: g.longitude)
        let dx = b.x - a.x
        let dy = b.y - a.y
        // Metres along the meridian for `step` degrees: the meridional radius of curvature.
        let e2 = Ellipsoid.wgs84.eccentricitySquared
        let s = sin(latitude * .pi / 180)
        let meridional = WGS84.equatorialRadius * (1 - e2) / pow(1 - e2 * s * s, 1.5)
        let ground = meridional * step * .pi / 180
        return UnprojectedPoint(
            latitude: g.latitude, longitude: g.longitude, convergence: -atan2(dx, dy) * 180 / .pi,
            scale: (dx * dx + dy * dy).squareRoot() / ground)
    }

    /// The names of the datum and of the projection method of the CRS's horizontal part.
    private static func datumAndMethod(_ crs: ProjObject, _ context: ProjContext) -> (String, String?) {
        var horizontal = crs
        if proj.proj_get_type(crs.handle) == PJ_TYPE_COMPOUND_CRS,
            let first = context.object({ proj.proj_crs_get_sub_crs($0, crs.handle, 0) })
        {
            horizontal = first
        }
        if proj.proj_get_type(horizontal.handle) == PJ_TYPE_BOUND_CRS,
            let source = context.object({ proj.proj_get_source_crs($0, horizontal.handle) })
        {
            horizontal = source
        }
        // A datum ensemble (WGS 84, ETRS89) has no single datum: its name is the ensemble's.
        let datum =
            (context.object({ proj.proj_crs_get_datum($0, horizontal.handle) })
            ?? context.object({ proj.proj_crs_get_datum_ensemble($0, horizontal.handle) }))
            .flatMap { proj.proj_get_name($0.handle).map { String(cString: $0) } } ?? "unknown datum"
        var method: String?
        if let conversion = context.object({ proj.proj_crs_get_coordoperation($0, horizontal.handle) }) {
            var name: UnsafePointer<CChar>?
            if proj.proj_coordoperation_get_method_info(context.handle, conversion.handle, &name, nil, nil) != 0 {
                method = name.map { String(cString: $0) }
            }
        }
        _ = context.takeError()
        return (datum, method)
    }

    /// The axes of the CRS's horizontal part (a compound CRS's first component, a bound CRS's
    /// source), in the CRS's own order.
    private static func horizontalAxes(_ crs: ProjObject, _ context: ProjContext) -> [Axis] {
        var horizontal = crs
        switch proj.proj_get_type(crs.handle) {
        case PJ_TYPE_COMPOUND_CRS:
            guard let first = context.object({ proj.proj_crs_get_sub_crs($0, crs.handle, 0) }) else { return [] }
            return horizontalAxes(first, context)
        case PJ_TYPE_BOUND_CRS:
            guard let source = context.object({ proj.proj_get_source_crs($0, crs.handle) }) else { return [] }
            horizontal = source
        default: break
        }
        guard let cs = context.object({ proj.proj_crs_get_coordinate_system($0, horizontal.handle) }) else { return [] }
        let angular = [PJ_TYPE_GEOGRAPHIC_2D_CRS, PJ_TYPE_GEOGRAPHIC_3D_CRS].contains(
            proj.proj_get_type(horizontal.handle))
        return (0..<min(2, proj.proj_cs_get_axis_count(context.handle, cs.handle))).compactMap { i in
            var direction: UnsafePointer<CChar>?
            var factor = 0.0
            guard
                proj.proj_cs_get_axis_info(context.handle, cs.handle, i, nil, nil, &direction, &factor, nil, nil, nil)
                    != 0,
                factor > 0
            else { return nil }
            return Axis(
                direction: direction.map { String(cString: $0).lowercased() } ?? "", factor: factor,
                isAngular: angular)
        }
    }

    private struct Axis {
        /// `east`, `north`, `west`, `south`...
        let direction: String
        /// Metres (or radians, for an angular axis) per unit.
        let factor: Double
        let isAngular: Bool
    }
}
