import DataSources
import Synchronization

/// The planes of the CRSs grids are drawn in (`"grid": {"type": "utm", "crs": "EPSG:27700"}`),
/// made once per process: making a PROJ plane costs milliseconds, a view's grid is made for
/// every image and metatile. Planes are shared by every thread (their conversions are locked).
public enum GridCRSPlanes {
    private static let planes = Mutex<[String: ProjectedPlane]>([:])

    /// The plane of `code`; throws when PROJ does not know it or it is geographic (a grid of
    /// eastings and northings needs a projected CRS).
    public static func plane(_ code: String) throws -> ProjectedPlane {
        if let known = planes.withLock({ $0[code] }) { return known }
        let plane: ProjectedPlane
        do { plane = try ProjectedPlane.projected(crs: code) } catch {
            throw RenderError.invalidView("the grid's crs: \(error.message)")
        }
        planes.withLock { $0[code] = plane }
        return plane
    }
}
