import CGDAL
import CLibraryLoader
import CPROJ

/// GDAL's functions (Sources/CGDAL/include/CGDAL.h), from libgdal opened on first use rather
/// than linked. `GDALRuntime.prepare` loads it first and reports a failure as an error; reaching
/// this without it is a programming error, which the message names.
let gdal: MeridianGDAL = {
    guard let table = meridian_gdal_load() else { fatalError(LoadedLibrary.gdal.failure(needed: "a call into GDAL")) }
    return table.pointee
}()

/// PROJ's functions (Sources/CPROJ/include/CPROJ.h), from libproj opened on first use: a map in
/// longitude/latitude drawn in Web Mercator never loads it. `ProjContext` loads it first.
let proj: MeridianPROJ = {
    guard let table = meridian_proj_load() else { fatalError(LoadedLibrary.proj.failure(needed: "a call into PROJ")) }
    return table.pointee
}()

/// A C library Meridian opens when first needed, and the one line that says it could not.
enum LoadedLibrary {
    case gdal, proj

    /// Loads the library (once per process; any thread); false when it cannot be loaded.
    func load() -> Bool {
        switch self {
        case .gdal: meridian_gdal_load() != nil
        case .proj: meridian_proj_load() != nil
        }
    }

    /// "cannot load GDAL (libgdal.so.32), which reading roads.shp needs: libgdal.so.32: cannot
    /// open shared object file: No such file or directory": the library, what it was for, and
    /// the dynamic loader's reason.
    func failure(needed purpose: String) -> String {
        let (name, library) =
            switch self {
            case .gdal: ("GDAL", meridian_gdal_library())
            case .proj: ("PROJ", meridian_proj_library())
            }
        let file = String(cString: meridian_library_file(library))
        let reason = String(cString: meridian_library_failure(library))
        return "cannot load \(name) (\(file)), which \(purpose) needs: \(reason.isEmpty ? "not loaded yet" : reason)"
    }
}
