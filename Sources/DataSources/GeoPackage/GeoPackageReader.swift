import CGDAL
import Geodesy
import MapModel
import SQLite

/// One thread's reader of a plain GeoPackage table (`GeoPackageTable`), straight from SQLite:
/// the R-tree gives the ids whose boxes meet the view, and each row's geometry blob is decoded
/// from SQLite's own buffer into our flat coordinates (`GeoPackageGeometry`). What OGR spends
/// per feature (an `OGRFeature` with its fields, an `OGRGeometry`, copying its points out: some
/// 5,800 instructions for a GSHHG line) is gone, and a line collapsed to its ends
/// (`OGRFeatureConverter.collapsedLine`) is never copied whole.
///
/// It gives what OGR's reading gives: the same features (OGR's spatial filter keeps a feature
/// whose envelope meets the filter when its geometry does, `SpatialFilterRect`), with the same
/// ids, geometry and attributes. A geometry this reader does not take apart is handed to OGR
/// as WKB and converted as OGR's reader converts it.
final class GeoPackageReader: ViewReader {
    private let source: OGRIndexedSource
    private let table: GeoPackageTable
    private let connection: SQLiteDatabase
    private let whole: SQLiteStatement
    private let boxed: SQLiteStatement
    private let converter: OGRFeatureConverter
    private var cache = ConvertedFeatures()
    private var geometry = GeoPackageGeometry()

    /// SQLite's page cache of each reader's connection, in KB (SQLite's default is 2,000 KB).
    /// A reader per layer and worker each filled it with the whole dataset (16 MB for the
    /// large benchmark's four layers and two workers) and not with its 1/10 sample; what a view
    /// reads again is mostly the R-tree's upper nodes, a few pages, while its rows are read
    /// once per view, in more pages than the default holds anyway.
    static let pageCacheKB = 256

    /// Bytes of SQLite's page cache in use by this reader (for tests).
    var pageCacheBytes: Int { connection.pageCacheBytes }

    /// The features kept (for tests).
    var converted: BudgetedCache<Int, Feature> { cache.kept }

    init(source: OGRIndexedSource, table: GeoPackageTable) throws {
        self.source = source
        self.table = table
        do {
            connection = try SQLiteDatabase(path: table.path, mode: .readOnly)
            try connection.execute("PRAGMA cache_size = -\(GeoPackageReader.pageCacheKB)")
            whole = try connection.prepare(table.wholeQuery)
            boxed = try connection.prepare(table.boxQuery)
        } catch {
            throw DocumentError(
                file: source.documentPath, place: source.place,
                message: "cannot read table \(table.table) of \(source.spec.name): \(error.message)")
        }
        converter = OGRFeatureConverter(
            attributes: OGRAttributes(fields: []), projector: try source.reporting { try MercatorProjector(source.crs) }
        )
    }

    func visitFeatures(in rect: Rect, collapsingLinesWithin tolerance: Double?, _ body: (Feature) throws -> Void)
        throws
    {
        cache.beginView(rect)
        let area = rect.intersection(source.bounds)
        guard !area.isEmpty else { return }
        let query: SQLiteStatement
        var filter: SpatialFilterRect?
        if let box = source.filter(for: rect, area: area, projector: converter.projector) {
            query = boxed
            do {
                for (i, bound) in [box.minX, box.minY, box.maxX, box.maxY].enumerated() {
                    try query.bind(Int32(i + 1), bound)
                }
            } catch { throw problem("reading table \(table.table) failed: \(error.message)") }
            filter = SpatialFilterRect(box)
        } else {
            query = whole
        }
        defer { query.reset() }
        while try step(query) {
            let id = query.int(0)
            let status = geometry.read(query.blobView(1))
            if case .invalid(let reason) = status {
                throw problem("feature \(id) of table \(table.table): \(reason)")
            }
            if let filter, !filter.keeps(geometry, status) { continue }
            try cache.visit(
                id, in: rect, collapsingLinesWithin: tolerance,
                collapsed: { status == .read ? collapsedLine(query, id: id, within: $0) : nil },
                converted: { try feature(query, id: id, status) }, body)
        }
    }

    private func step(_ query: SQLiteStatement) throws -> Bool {
        do { return try query.step() } catch {
            throw problem("reading table \(table.table) failed: \(error.message)")
        }
    }

    private func problem(_ message: String) -> DocumentError {
        DocumentError(file: source.documentPath, place: source.place, message: "\(source.spec.name): \(message)")
    }

    /// The row's feature, as `OGRFeatureConverter.feature` makes it of OGR's.
    private func feature(_ query: SQLiteStatement, id: Int, _ status: GeoPackageGeometry.Status) throws -> Feature {
        let geometries: [Geometry]
        switch status {
        case .read:
            var (coordinates, partStarts) = geometry.allVertices()
            try source.reporting { try converter.projector.toWebMercator(&coordinates) }
            geometries = [
                Geometry(
                    kind: geometry.kind, coordinates: coordinates, partStarts: partStarts,
                    polygonStarts: geometry.kind == .polygon ? geometry.polygonStarts : [])
            ]
        case .none:
            geometries = []
        case .unsupported, .invalid:
            geometries = try ogrGeometries(id: id)
        }
        return Feature(index: id, geometries: geometries, properties: properties(query))
    }

    /// A geometry this reader does not take apart, through OGR.
    private func ogrGeometries(id: Int) throws -> [Geometry] {
        let wkb = geometry.wkb
        var parsed: OGRGeometryH?
        guard gdal.OGR_G_CreateFromWkb(wkb.baseAddress, nil, &parsed, Int32(wkb.count)) == OGRERR_NONE, let parsed
        else {
            throw problem("feature \(id) of table \(table.table): OGR cannot read its geometry")
        }
        defer { gdal.OGR_G_DestroyGeometry(parsed) }
        return try source.reporting { try converter.geometries(of: parsed) }
    }

    /// `OGRFeatureConverter.collapsedLine` of the row: a line within `tolerance`, as its ends.
    private func collapsedLine(_ query: SQLiteStatement, id: Int, within tolerance: Double) -> (
        feature: Feature, bounds: Rect
    )? {
        let projector = converter.projector
        let envelope = geometry.envelope
        guard projector.isLongitudeLatitude, geometry.kind == .line,
            let low = projector.mercator(longitude: envelope.minX, latitude: envelope.minY),
            let high = projector.mercator(longitude: envelope.maxX, latitude: envelope.maxY)
        else { return nil }
        let bounds = Rect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
        let half = tolerance / 2
        guard bounds.width * bounds.width + bounds.height * bounds.height <= half * half else { return nil }
        var coordinates: [Double] = []
        coordinates.reserveCapacity(4 * geometry.runs.count)
        var partStarts = [Int]()
        partStarts.reserveCapacity(geometry.runs.count + 1)
        partStarts.append(0)
        for run in geometry.runs {
            let first = geometry.vertex(run, 0)
            let last = geometry.vertex(run, run.count - 1)
            guard let a = projector.mercator(longitude: first.x, latitude: first.y),
                let b = projector.mercator(longitude: last.x, latitude: last.y)
            else { return nil }
            coordinates.append(a.x)
            coordinates.append(a.y)
            if run.count > 1 {
                coordinates.append(b.x)
                coordinates.append(b.y)
            }
            partStarts.append(coordinates.count / 2)
        }
        let line = Geometry(kind: .line, coordinates: coordinates, partStarts: partStarts)
        return (Feature(index: id, geometries: [line], properties: properties(query)), bounds)
    }

    /// The row's attributes as `OGRAttributes.properties` gives OGR's: NULL is `.null`.
    private func properties(_ query: SQLiteStatement) -> Properties {
        guard !table.columns.isEmpty else { return Properties() }
        var entries: [(key: String, value: PropertyValue)] = []
        entries.reserveCapacity(table.columns.count)
        for (i, column) in table.columns.enumerated() {
            entries.append((column.name, column.kind.value(query, Int32(i + 2))))
        }
        return Properties(entries)
    }
}
