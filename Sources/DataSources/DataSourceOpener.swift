import CGDAL
import Geodesy
import MapModel

/// Opens a layer's source with whatever reads it best:
///
/// - GeoJSON files (`.geojson`, `.json`) with MapModel's strict reader, whose errors give a
///   line and a column; PROJ converts them when their `crs` member or the layer's `srs` names
///   a CRS other than longitude/latitude. With `layer`, `sql` or `where`, GDAL reads them.
/// - Everything else through GDAL/OGR: indexed sources (a GeoPackage, a FlatGeobuf, a
///   Shapefile with a `.qix`, PostGIS) are queried view by view; the others are read once
///   into a `FeatureStore`.
///
/// The CRS comes from the layer's `srs`, else from the data; a source with neither is an error.
public struct DataSourceOpener: SourceOpener {
    /// Told how many features have been read from sources read whole, every 10,000.
    public let progress: (any StageReporter)?

    public init(progress: (any StageReporter)? = nil) {
        self.progress = progress
    }

    public func open(_ source: LayerSource, layer: Int, document: MapDocument) throws -> any FeatureSource {
        let place = "layers[\(layer)]"
        if let style = document.layers[layer].raster {
            do {
                let raster = try GDALRasterSource(layer: document.layers[layer], style: style)
                _ = try raster.makeRasterReader()  // the bands select and warp here as when drawn
                return raster
            } catch let problem as SourceProblem {
                throw DocumentError(file: document.path, place: "\(place).\(problem.key)", message: problem.message)
            } catch {
                throw DocumentError(file: document.path, place: "\(place).raster", message: "\(error)")
            }
        }
        if DataSourceOpener.readsAsGeoJSON(source) {
            return try GeoJSONFiles(resolver: ProjCRSResolver(), progress: progress).open(
                source, layer: layer, document: document)
        }
        do {
            return try openWithOGR(source, name: document.layers[layer].name, document: document, place: place)
        } catch let problem as SourceProblem {
            throw DocumentError(file: document.path, place: "\(place).\(problem.key)", message: problem.message)
        }
    }

    static func readsAsGeoJSON(_ source: LayerSource) -> Bool {
        ["geojson", "json"].contains(source.fileExtension) && source.layer == nil && source.sql == nil
            && source.attributeFilter == nil
    }

    func openWithOGR(_ source: LayerSource, name: String, document: MapDocument, place: String) throws
        -> any FeatureSource
    {
        let spec = OGRLayerSpec(source: source)
        let handle = try spec.open()
        guard let definition = source.srs ?? handle.crsDefinition else {
            throw SourceProblem(
                "source",
                "\(spec.name) has no coordinate reference system: give layer \"\(name)\" one with \"srs\", "
                    + "such as \"srs\": \"EPSG:4326\"")
        }
        let crs: SourceCRS
        let projector: MercatorProjector
        do {
            crs = try SourceCRS(definition)
            projector = try MercatorProjector(crs)
        } catch {
            throw SourceProblem(
                source.srs != nil ? "srs" : "source",
                source.srs != nil ? error.message : "\(spec.name): the data's CRS is unusable: \(error.message)")
        }
        if handle.isIndexed {
            // Read by view, a source in the wrong CRS would draw nothing rather than fail.
            if projector.isLongitudeLatitude, let extent = handle.extent,
                extent.minX < -180.5 || extent.maxX > 180.5 || extent.minY < -90.5 || extent.maxY > 90.5
            {
                throw SourceProblem(
                    source.srs != nil ? "srs" : "source",
                    "\(spec.name) spans x \(DecimalFormat.shortest(extent.minX)) to \(DecimalFormat.shortest(extent.maxX)), "
                        + "y \(DecimalFormat.shortest(extent.minY)) to \(DecimalFormat.shortest(extent.maxY)): not longitude/latitude "
                        + "as its CRS \(crs.label) says; give the layer its CRS with \"srs\"")
            }
            if source.attributeFilter != nil || source.sql != nil {
                try handle.probe(near: handle.extent, key: source.attributeFilter != nil ? "where" : "sql")
            }
            let world = Rect(
                minX: -WebMercator.halfWorld, minY: -WebMercator.halfWorld, maxX: WebMercator.halfWorld,
                maxY: WebMercator.halfWorld)
            let bounds = handle.extent.flatMap { projector.mercatorBounds(ofSource: $0) } ?? world
            return OGRIndexedSource(
                spec: spec, crs: crs, bounds: bounds.expanded(by: max(bounds.width, bounds.height) * 0.01 + 1),
                geometryKinds: handle.geometryKinds, geoPackage: GeoPackageTable.find(handle, spec: spec),
                documentPath: document.path, place: place + ".source")
        }
        return FeatureStore(
            path: source.dataset,
            table: try readAll(
                handle, projector, spec, progress: progress.map { ReadingProgress(reporter: $0, name: name) }))
    }

    /// Every feature, numbered in the order the source gives them, into a compact table.
    private func readAll(
        _ handle: OGRLayerHandle, _ projector: MercatorProjector, _ spec: OGRLayerSpec, progress: ReadingProgress?
    ) throws(SourceProblem) -> FeatureTable {
        let converter = OGRFeatureConverter(layer: handle.layer, projector: projector)
        var table = FeatureTable()
        gdal.OGR_L_ResetReading(handle.layer)
        GDALRuntime.resetError()
        while let raw = gdal.OGR_L_GetNextFeature(handle.layer) {
            defer { gdal.OGR_F_Destroy(raw) }
            let place = "\(spec.name): feature \(table.count) (FID \(gdal.OGR_F_GetFID(raw)))"
            let feature: Feature
            do { feature = try converter.feature(raw, index: table.count) } catch {
                throw SourceProblem("source", "\(place): \(error.message)")
            }
            guard table.fits(feature) else { throw SourceProblem("source", "\(place): \(FeatureTable.fullMessage)") }
            table.append(feature)
            progress?.read(table.count)
        }
        if GDALRuntime.failed {
            throw SourceProblem(
                spec.source.sql != nil ? "sql" : (spec.source.attributeFilter != nil ? "where" : "source"),
                "reading \(spec.name) failed: \(GDALRuntime.lastError() ?? "GDAL gives no reason")")
        }
        return table
    }
}

/// Resolves CRS names for the GeoJSON reader with PROJ. The names of longitude/latitude WGS84
/// need no conversion and are answered without PROJ, so that such a map never loads libproj:
/// PROJ finds each of them equivalent to EPSG:4326, for which `MercatorProjector` converts
/// nothing either.
struct ProjCRSResolver: CRSResolver {
    func transform(forCRS name: String) throws -> (any CoordinateTransform)? {
        if GeoJSONReader.longitudeLatitudeNames.contains(name) { return nil }
        let projector = try MercatorProjector(try SourceCRS(name))
        return projector.isLongitudeLatitude ? nil : projector
    }
}

extension OGRLayerHandle {
    /// What the layer declares it holds; nil for a mix or unknown (an SQL result, GeoJSON).
    var geometryKinds: Set<Geometry.Kind>? {
        switch gdal.OGR_GT_Flatten(gdal.OGR_L_GetGeomType(layer)) {
        case wkbPoint, wkbMultiPoint: return [.point]
        case wkbLineString, wkbMultiLineString, wkbCircularString, wkbCompoundCurve, wkbMultiCurve: return [.line]
        case wkbPolygon, wkbMultiPolygon, wkbCurvePolygon, wkbMultiSurface, wkbTriangle, wkbTIN, wkbPolyhedralSurface:
            return [.polygon]
        default: return nil
        }
    }
}
