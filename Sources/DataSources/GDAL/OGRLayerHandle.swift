import CGDAL
import Foundation
import Geodesy
import MapModel

/// Why a source cannot be read, and which key of the layer says so (`source`, `layer`, `sql`,
/// `where`, `srs`); the opener adds the map file and the layer.
struct SourceProblem: Error {
    let key: String
    let message: String

    init(_ key: String, _ message: String) {
        self.key = key
        self.message = message
    }
}

/// How to open the layer a source reads: a value that crosses threads, so that each worker
/// opens its own handle (GDAL datasets and database connections are not thread-safe).
struct OGRLayerSpec: Sendable {
    let source: LayerSource

    /// The name messages use for the dataset: the file's name, or the connection string.
    var name: String { source.isConnection ? source.dataset : (source.dataset as NSString).lastPathComponent }

    /// CSV files: numbers typed as numbers (as GeoJSON's), geometry from a WKT column or from
    /// X/Y columns under their usual names.
    private var openOptions: [String] {
        guard ["csv", "tsv"].contains(source.fileExtension) else { return [] }
        return [
            "AUTODETECT_TYPE=YES", "KEEP_GEOM_COLUMNS=NO",
            "X_POSSIBLE_NAMES=x,lon,lng,long,longitude,easting",
            "Y_POSSIBLE_NAMES=y,lat,latitude,northing",
        ]
    }

    func open() throws(SourceProblem) -> OGRLayerHandle {
        if !source.isConnection {
            guard FileManager.default.fileExists(atPath: source.dataset) else {
                throw SourceProblem("source", "no such file: \(source.dataset)")
            }
            guard FileManager.default.isReadableFile(atPath: source.dataset) else {
                throw SourceProblem("source", "cannot read \(source.dataset): permission denied")
            }
        }
        try GDALRuntime.prepare(for: "reading \(name)", key: "source")
        GDALRuntime.resetError()
        let flags = UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY)
        guard let dataset = withCStrings(openOptions, { gdal.GDALOpenEx(source.dataset, flags, nil, $0, nil) }) else {
            if source.isConnection {
                throw SourceProblem(
                    "source", "cannot open \(source.dataset): \(GDALRuntime.lastError() ?? "GDAL knows no such source")"
                )
            }
            let reason = GDALRuntime.lastError().map { "\($0); " } ?? ""
            throw SourceProblem(
                "source",
                "\(name) is not in a format GDAL reads as vector data (\(reason)tried the drivers "
                    + GDALRuntime.vectorDrivers().joined(separator: ", ") + ")")
        }
        return try OGRLayerHandle(dataset: dataset, spec: self)
    }
}

/// An open dataset and the layer chosen in it; closes both. Used by one thread at a time.
final class OGRLayerHandle {
    private let dataset: UnsafeMutableRawPointer
    let layer: UnsafeMutableRawPointer
    /// A layer made by `sql`, given back to the dataset before it closes.
    private let isResultSet: Bool

    fileprivate init(dataset: UnsafeMutableRawPointer, spec: OGRLayerSpec) throws(SourceProblem) {
        self.dataset = dataset
        let source = spec.source
        var layer: UnsafeMutableRawPointer?
        if let sql = source.sql {
            GDALRuntime.resetError()
            layer = gdal.GDALDatasetExecuteSQL(dataset, sql, nil, nil)
            guard layer != nil else {
                gdal.GDALClose(dataset)
                throw SourceProblem(
                    "sql", "the statement failed: \(GDALRuntime.lastError() ?? "it returns no rows to draw")")
            }
        } else if let name = source.layer {
            layer = gdal.GDALDatasetGetLayerByName(dataset, name)
            guard layer != nil else {
                let names = OGRLayerHandle.layerNames(dataset)
                gdal.GDALClose(dataset)
                throw SourceProblem(
                    "layer",
                    "\(spec.name) has no layer \"\(name)\""
                        + (names.isEmpty
                            ? " (it holds none)"
                            : "; its layers are " + names.map { "\"\($0)\"" }.joined(separator: ", ")))
            }
        } else {
            let names = OGRLayerHandle.layerNames(dataset)
            guard names.count == 1 else {
                gdal.GDALClose(dataset)
                if names.isEmpty { throw SourceProblem("source", "\(spec.name) holds no layers") }
                throw SourceProblem(
                    "layer",
                    "\(spec.name) holds \(names.count) layers; choose one with \"layer\": "
                        + names.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            layer = gdal.GDALDatasetGetLayer(dataset, 0)
        }
        self.layer = layer!
        self.isResultSet = source.sql != nil
        if let filter = source.attributeFilter {
            GDALRuntime.resetError()
            guard gdal.OGR_L_SetAttributeFilter(self.layer, filter) == OGRERR_NONE else {
                throw SourceProblem("where", "the filter failed: \(GDALRuntime.lastError() ?? "OGR rejects it")")
            }
        }
        if gdal.OGR_L_GetGeomType(self.layer) == wkbNone {
            let csvHint =
                ["csv", "tsv"].contains(source.fileExtension)
                ? " (a CSV needs a WKT column, or X and Y columns such as lon and lat)" : ""
            throw SourceProblem("source", "\(spec.name) has no geometry to draw\(csvHint)")
        }
    }

    deinit {
        if isResultSet { gdal.GDALDatasetReleaseResultSet(dataset, layer) }
        gdal.GDALClose(dataset)
    }

    /// Reads one feature in a corner of the data, so that a filter or statement the driver checks
    /// only when reading (GeoPackage, PostgreSQL) fails at load, naming its key. The spatial
    /// filter keeps a database from reading a whole table for it.
    func probe(near extent: Rect?, key: String) throws(SourceProblem) {
        if let extent {
            let step = max(extent.width, extent.height) * 1e-6
            gdal.OGR_L_SetSpatialFilterRect(layer, extent.minX, extent.minY, extent.minX + step, extent.minY + step)
        }
        defer { gdal.OGR_L_SetSpatialFilter(layer, nil) }
        gdal.OGR_L_ResetReading(layer)
        GDALRuntime.resetError()
        if let feature = gdal.OGR_L_GetNextFeature(layer) { gdal.OGR_F_Destroy(feature) }
        if GDALRuntime.failed {
            throw SourceProblem(key, "reading failed: \(GDALRuntime.lastError() ?? "GDAL gives no reason")")
        }
        gdal.OGR_L_ResetReading(layer)
    }

    /// The short name of the driver that opened the dataset (`PostgreSQL`, `GPKG`).
    var driverName: String {
        gdal.GDALGetDatasetDriver(dataset).flatMap { gdal.GDALGetDriverShortName($0) }.map { String(cString: $0) } ?? ""
    }

    /// The layer's name in its dataset (for PostgreSQL, `table` or `schema.table`).
    var layerName: String { String(cString: gdal.OGR_L_GetName(layer)!) }

    /// Runs a statement on the dataset and returns the first row's values as numbers.
    func firstRow(_ sql: String) throws(SourceProblem) -> [Double] {
        GDALRuntime.resetError()
        guard let result = gdal.GDALDatasetExecuteSQL(dataset, sql, nil, nil) else {
            throw SourceProblem("source", "the statement \(sql) failed: \(GDALRuntime.lastError() ?? "no result")")
        }
        defer { gdal.GDALDatasetReleaseResultSet(dataset, result) }
        guard let row = gdal.OGR_L_GetNextFeature(result) else { return [] }
        defer { gdal.OGR_F_Destroy(row) }
        return (0..<gdal.OGR_F_GetFieldCount(row)).map { gdal.OGR_F_GetFieldAsDouble(row, $0) }
    }

    /// Makes the layer skip geometry: reading attributes alone is cheaper.
    func ignoreGeometry() {
        let definition = gdal.OGR_L_GetLayerDefn(layer)
        let names = (0..<gdal.OGR_FD_GetGeomFieldCount(definition)).map {
            String(cString: gdal.OGR_GFld_GetNameRef(gdal.OGR_FD_GetGeomFieldDefn(definition, $0))!)
        }
        _ = withCStrings(["OGR_GEOMETRY"] + names) {
            gdal.OGR_L_SetIgnoredFields(layer, UnsafeMutablePointer(mutating: $0))
        }
    }

    private static func layerNames(_ dataset: UnsafeMutableRawPointer) -> [String] {
        (0..<gdal.GDALDatasetGetLayerCount(dataset)).compactMap { i in
            gdal.GDALDatasetGetLayer(dataset, i).flatMap { gdal.OGR_L_GetName($0) }.map { String(cString: $0) }
        }
    }

    /// True when a spatial filter is answered by an index (a GeoPackage R-tree, a FlatGeobuf
    /// index, a Shapefile's .qix, PostGIS's GiST) and the features have stable ids, so that
    /// the layer can be queried view by view.
    var isIndexed: Bool {
        guard gdal.OGR_L_TestCapability(layer, OLCFastSpatialFilter) != 0 else { return false }
        // A query result numbers its rows in the order they come unless it has an id column.
        return !isResultSet || String(cString: gdal.OGR_L_GetFIDColumn(layer)!).isEmpty == false
    }

    /// The layer's CRS as text PROJ reads, nil when the data has none.
    var crsDefinition: String? {
        guard let srs = gdal.OGR_L_GetSpatialRef(layer) else { return nil }
        if let auth = gdal.OSRGetAuthorityName(srs, nil), let code = gdal.OSRGetAuthorityCode(srs, nil) {
            return "\(String(cString: auth)):\(String(cString: code))"
        }
        var text: UnsafeMutablePointer<CChar>?
        let options = ["FORMAT=WKT2_2019"]
        let status = withCStrings(options) { gdal.OSRExportToWktEx(srs, &text, $0) }
        defer { gdal.VSIFree(text) }
        guard status == OGRERR_NONE, let text else { return nil }
        return String(cString: text)
    }

    /// The extent of the data in its CRS, nil when unknown or empty.
    var extent: Rect? {
        var envelope = OGREnvelope()
        GDALRuntime.resetError()
        // Without force first: an index's or the database statistics' extent, when known.
        guard
            gdal.OGR_L_GetExtent(layer, &envelope, 0) == OGRERR_NONE
                || gdal.OGR_L_GetExtent(layer, &envelope, 1) == OGRERR_NONE
        else { return nil }
        let rect = Rect(minX: envelope.MinX, minY: envelope.MinY, maxX: envelope.MaxX, maxY: envelope.MaxY)
        return rect.isEmpty ? nil : rect
    }
}

/// Calls `body` with a NULL-terminated C array of C strings (GDAL's option lists).
func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
