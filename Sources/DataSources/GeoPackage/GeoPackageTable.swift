import CGDAL
import MapModel
import SQLite

/// A plain GeoPackage feature table with an R-tree, which `GeoPackageReader` reads straight
/// from SQLite: its file, table, columns and R-tree, and how each attribute column reads as
/// OGR reads it. Found once when the map loads, from the layer OGR opened; nil for anything
/// else (another driver, a `sql` or `where` layer, a view, attribute types beyond numbers and
/// plain text), which OGR goes on reading.
struct GeoPackageTable: Sendable {
    /// How an attribute column reads, by OGR's field type for it.
    enum Column: Sendable, Equatable {
        /// OGR's Integer (32-bit); Boolean when `boolean`.
        case integer(boolean: Bool)
        /// OGR's Integer64.
        case integer64
        case real
        case text
    }

    let path: String
    let table: String
    let fidColumn: String
    let geometryColumn: String
    /// Attribute names and how each reads, in OGR's field order.
    let columns: [(name: String, kind: Column)]

    /// The R-tree's table, as the GeoPackage specification names it.
    var rtree: String { "rtree_\(table)_\(geometryColumn)" }

    /// Every row: the id, the geometry, the attributes.
    var wholeQuery: String {
        "SELECT \(selected) FROM \(GeoPackageTable.quoted(table))"
    }

    /// The rows whose R-tree box meets ?1 ... ?4 (min x, min y, max x, max y), by ascending
    /// id (SQLite gathers the R-tree's ids first, then reads the table in their order).
    var boxQuery: String {
        "SELECT \(selected) FROM \(GeoPackageTable.quoted(table)) WHERE \(GeoPackageTable.quoted(fidColumn)) IN "
            + "(SELECT id FROM \(GeoPackageTable.quoted(rtree)) WHERE minx <= ?3 AND maxx >= ?1 AND miny <= ?4 AND maxy >= ?2)"
    }

    private var selected: String {
        ([fidColumn, geometryColumn] + columns.map(\.name)).map(GeoPackageTable.quoted).joined(separator: ", ")
    }

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The table `handle` reads, when it is one this reader takes.
    static func find(_ handle: OGRLayerHandle, spec: OGRLayerSpec) -> GeoPackageTable? {
        let source = spec.source
        guard handle.driverName == "GPKG", !source.isConnection, source.sql == nil, source.attributeFilter == nil
        else { return nil }
        let layer = handle.layer
        let definition = gdal.OGR_L_GetLayerDefn(layer)
        guard gdal.OGR_FD_GetGeomFieldCount(definition) == 1 else { return nil }
        let fid = String(cString: gdal.OGR_L_GetFIDColumn(layer)!)
        let geometry = String(cString: gdal.OGR_L_GetGeometryColumn(layer)!)
        guard !fid.isEmpty, !geometry.isEmpty else { return nil }
        var columns: [(String, Column)] = []
        for field in OGRAttributes(layer: layer).fields {
            let kind: Column
            switch field.type {
            case OFTInteger: kind = .integer(boolean: field.subtype == OFSTBoolean)
            case OFTInteger64: kind = .integer64
            case OFTReal: kind = .real
            case OFTString where field.subtype == OFSTNone: kind = .text
            default: return nil
            }
            columns.append((field.name, kind))
        }
        let table = GeoPackageTable(
            path: source.dataset, table: handle.layerName, fidColumn: fid, geometryColumn: geometry, columns: columns)
        return table.isReadable ? table : nil
    }

    /// Whether SQLite opens the file and finds a features table (not a view) with its R-tree,
    /// and both queries compile.
    private var isReadable: Bool {
        guard let connection = try? SQLiteDatabase(path: path, mode: .readOnly) else { return false }
        let name = table.replacingOccurrences(of: "'", with: "''")
        let kinds = try? connection.texts(
            "SELECT type FROM sqlite_master WHERE name = '\(name)' "
                + "UNION ALL SELECT 'features' FROM gpkg_contents WHERE table_name = '\(name)' AND data_type = 'features' "
                + "UNION ALL SELECT 'rtree' FROM sqlite_master WHERE name = '\(rtree.replacingOccurrences(of: "'", with: "''"))'"
        )
        guard kinds?.sorted() == ["features", "rtree", "table"] else { return false }
        return (try? connection.prepare(wholeQuery)) != nil && (try? connection.prepare(boxQuery)) != nil
    }
}
