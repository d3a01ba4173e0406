import CGDAL
import Geodesy
import MapModel

/// A source that stays where it is — a GeoPackage, a FlatGeobuf, a Shapefile with a `.qix`,
/// a PostGIS table — and is asked, view by view, only for what intersects the view: OGR turns
/// the view into a spatial filter the data's index answers (PostGIS: `geom && envelope`, so the
/// GiST index is used), never a scan of the whole table.
final class OGRIndexedSource: FeatureSource {
    let spec: OGRLayerSpec
    let crs: SourceCRS
    let bounds: Rect
    let geometryKinds: Set<Geometry.Kind>?
    /// A plain GeoPackage table, read straight from SQLite (`GeoPackageReader`); nil for
    /// everything else, read through OGR.
    let geoPackage: GeoPackageTable?
    /// For errors while drawing: the map file and `layers[i].source`.
    let documentPath: String
    let place: String

    var isIndexed: Bool { true }

    init(
        spec: OGRLayerSpec, crs: SourceCRS, bounds: Rect, geometryKinds: Set<Geometry.Kind>?,
        geoPackage: GeoPackageTable? = nil, documentPath: String, place: String
    ) {
        self.spec = spec
        self.geoPackage = geoPackage
        self.crs = crs
        self.bounds = bounds
        self.geometryKinds = geometryKinds
        self.documentPath = documentPath
        self.place = place
    }

    func makeReader() throws -> any FeatureReader {
        if let geoPackage { return try GeoPackageReader(source: self, table: geoPackage) }
        return try reporting { try OGRIndexedReader(source: self) }
    }

    /// PostGIS answers with one aggregate query (the longest text of each attribute the label
    /// uses, summed: a bound); a plain GeoPackage table is read once in SQLite, its label's
    /// columns alone; other sources are read once without their geometry.
    func longestLabel(_ text: LabelText) throws -> Int {
        if let geoPackage {
            do { return try geoPackage.longestLabel(text) } catch {
                throw DocumentError(
                    file: documentPath, place: place,
                    message: "reading table \(geoPackage.table) of \(spec.name) failed: \(error.message)")
            }
        }
        return try longestLabelThroughOGR(text)
    }

    /// `longestLabel` as OGR reads the source (the GeoPackage tables' too, for tests).
    func longestLabelThroughOGR(_ text: LabelText) throws -> Int {
        let handle = try reporting { try spec.open() }
        var attributes: [String] = []
        var literal = 0
        for piece in text.pieces {
            switch piece {
            case .literal(let s): literal += s.unicodeScalars.count
            case .attribute(let name): attributes.append(name)
            }
        }
        guard !attributes.isEmpty else { return literal }
        let fields = OGRAttributes(layer: handle.layer).fields
        if handle.driverName == "PostgreSQL" {
            // A number prints in at most 24 characters; text is measured by the database.
            var bound = literal
            var columns: [String] = []
            for name in attributes {
                guard let field = fields.first(where: { $0.name == name }) else { continue }
                if field.isNumber {
                    bound += 24
                } else {
                    columns.append("max(char_length(CAST(\(OGRIndexedSource.quoted(name)) AS text)))")
                }
            }
            guard !columns.isEmpty else { return bound }
            let from =
                spec.source.sql.map { "(\($0)) AS meridian_rows" } ?? OGRIndexedSource.quotedTable(handle.layerName)
            let filter = spec.source.attributeFilter.map { " WHERE \($0)" } ?? ""
            let row = try reporting {
                try handle.firstRow("SELECT \(columns.joined(separator: ", ")) FROM \(from)\(filter)")
            }
            return bound + row.reduce(0) { $0 + max(Int($1), 0) }
        }
        let reader = OGRAttributes(layer: handle.layer)
        handle.ignoreGeometry()
        gdal.OGR_L_ResetReading(handle.layer)
        GDALRuntime.resetError()
        var longest = 0
        while let feature = gdal.OGR_L_GetNextFeature(handle.layer) {
            defer { gdal.OGR_F_Destroy(feature) }
            longest = max(longest, text.resolve(reader.properties(feature)).unicodeScalars.count)
        }
        try checkReading()
        return longest
    }

    /// A PostgreSQL identifier, quoted.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// `schema.table` as `"schema"."table"`.
    static func quotedTable(_ name: String) -> String {
        name.split(separator: ".", maxSplits: 1).map { quoted(String($0)) }.joined(separator: ".")
    }

    /// The spatial filter (in the source's CRS) of a view of `rect`, whose part within the
    /// data is `area`; nil for none. A view of all the data (a whole-world metatile at zooms
    /// 0-3) reads the table in order: through the index, OGR joins the R-tree and tests every
    /// feature's envelope against a filter that keeps them all (2% of the GSHHG lines' zoom 0).
    func filter(for rect: Rect, area: Rect, projector: MercatorProjector) -> Rect? {
        rect.contains(bounds) ? nil : projector.sourceRect(ofMercator: area)
    }

    /// Throws the error of a failed read (a lost connection, a statement the database rejects).
    func checkReading() throws {
        guard GDALRuntime.failed else { return }
        throw DocumentError(
            file: documentPath, place: place,
            message: "reading \(spec.name) failed: \(GDALRuntime.lastError() ?? "GDAL gives no reason")")
    }

    /// Runs `body`, turning our internal errors into the map's errors.
    func reporting<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let problem as SourceProblem {
            throw DocumentError(file: documentPath, place: place, message: problem.message)
        } catch let failure as TransformFailure {
            throw DocumentError(file: documentPath, place: place, message: "\(spec.name): \(failure.message)")
        }
    }
}

/// One thread's handle on an indexed source read through OGR: its own dataset (its own
/// database connection) and PROJ context. Features already converted that reach beyond the
/// query are kept by id (`ConvertedFeatures`), so a feature that several views reach is
/// reprojected once, not once per view.
final class OGRIndexedReader: ViewReader {
    private let source: OGRIndexedSource
    private let handle: OGRLayerHandle
    private let converter: OGRFeatureConverter
    private var cache = ConvertedFeatures()

    /// The features kept (for tests).
    var converted: BudgetedCache<Int, Feature> { cache.kept }

    init(source: OGRIndexedSource) throws {
        self.source = source
        handle = try source.spec.open()
        converter = OGRFeatureConverter(layer: handle.layer, projector: try MercatorProjector(source.crs))
    }

    func visitFeatures(in rect: Rect, collapsingLinesWithin tolerance: Double?, _ body: (Feature) throws -> Void)
        throws
    {
        cache.beginView(rect)
        let area = rect.intersection(source.bounds)
        guard !area.isEmpty else { return }
        let layer = handle.layer
        if let filter = source.filter(for: rect, area: area, projector: converter.projector) {
            gdal.OGR_L_SetSpatialFilterRect(layer, filter.minX, filter.minY, filter.maxX, filter.maxY)
        } else {
            gdal.OGR_L_SetSpatialFilter(layer, nil)
        }
        gdal.OGR_L_ResetReading(layer)
        GDALRuntime.resetError()
        while let raw = gdal.OGR_L_GetNextFeature(layer) {
            defer { gdal.OGR_F_Destroy(raw) }
            let id = Int(gdal.OGR_F_GetFID(raw))
            try cache.visit(
                id, in: rect, collapsingLinesWithin: tolerance,
                collapsed: { converter.collapsedLine(raw, index: id, within: $0) },
                converted: { try source.reporting { try converter.feature(raw, index: id) } }, body)
        }
        try source.checkReading()
    }
}
