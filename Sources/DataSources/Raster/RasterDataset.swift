import CGDAL
import Geodesy

/// One open GDAL raster dataset, for one thread. With a layer's `srs` or `geotransform`, the
/// file is wrapped in an in-memory VRT that carries them (the file itself is never written).
final class RasterDataset {
    /// The file as GDAL opened it.
    private let file: GDALDatasetH
    /// What is read: the file, or the VRT over it.
    let handle: GDALDatasetH
    private let wrapper: GDALDatasetH?

    /// GDAL's block cache, shared by every worker: by default 5% of the machine's memory,
    /// which alone would be most of a tile job's memory budget (docs/performance.md).
    static let blockCacheBytes: Int64 = 96 << 20
    private static let cacheLimited: Void = gdal.GDALSetCacheMax64(blockCacheBytes)

    init(path: String, srs: String?, geotransform: [Double]?) throws(SourceProblem) {
        try GDALRuntime.prepare(for: "reading the raster \(path)", key: "raster")
        _ = RasterDataset.cacheLimited
        GDALRuntime.resetError()
        guard let opened = gdal.GDALOpenEx(path, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY), nil, nil, nil) else {
            let reason = GDALRuntime.lastError() ?? "GDAL cannot read it"
            throw SourceProblem("raster", "cannot open \(path) as a raster: \(reason)")
        }
        guard gdal.GDALGetRasterCount(opened) > 0 else {
            gdal.GDALClose(opened)
            throw SourceProblem("raster", "\(path) holds no raster bands")
        }
        file = opened
        if srs == nil, geotransform == nil {
            handle = opened
            wrapper = nil
        } else {
            let driver = gdal.GDALGetDriverByName("VRT")
            guard let vrt = gdal.GDALCreateCopy(driver, "", opened, 0, nil, nil, nil) else {
                gdal.GDALClose(opened)
                throw SourceProblem("raster", "\(path): \(GDALRuntime.lastError() ?? "cannot wrap it in a VRT")")
            }
            if let srs {
                let reference = gdal.OSRNewSpatialReference(nil)
                defer { gdal.OSRDestroySpatialReference(reference) }
                guard gdal.OSRSetFromUserInput(reference, srs) == OGRERR_NONE else {
                    gdal.GDALClose(vrt)
                    gdal.GDALClose(opened)
                    throw SourceProblem("srs", "unknown CRS \"\(srs)\"")
                }
                // A raster's geotransform is x east, y north, whatever the CRS's axis order.
                gdal.OSRSetAxisMappingStrategy(reference, OAMS_TRADITIONAL_GIS_ORDER)
                _ = gdal.GDALSetSpatialRef(vrt, reference)
            }
            if var transform = geotransform {
                _ = gdal.GDALSetGeoTransform(vrt, &transform)
            }
            handle = vrt
            wrapper = vrt
        }
        guard hasGeotransform else {
            throw SourceProblem(
                "raster",
                "\(path) has no georeferencing: give the layer a \"geotransform\" (and an \"srs\"), or add a world file"
            )
        }
    }

    deinit {
        if let wrapper { gdal.GDALClose(wrapper) }
        gdal.GDALClose(file)
    }

    var bandCount: Int { Int(gdal.GDALGetRasterCount(handle)) }
    var width: Int { Int(gdal.GDALGetRasterXSize(handle)) }
    var height: Int { Int(gdal.GDALGetRasterYSize(handle)) }

    private var hasGeotransform: Bool {
        var transform = [Double](repeating: 0, count: 6)
        return gdal.GDALGetGeoTransform(handle, &transform) == CE_None
    }

    /// The six numbers of the geotransform (GDAL's default, a unit grid, when it has none).
    var geotransform: [Double] {
        var transform = [Double](repeating: 0, count: 6)
        _ = gdal.GDALGetGeoTransform(handle, &transform)
        return transform
    }

    /// The extent in the dataset's CRS.
    var extent: Rect {
        let t = geotransform
        let xs = [
            t[0], t[0] + t[1] * Double(width), t[0] + t[2] * Double(height),
            t[0] + t[1] * Double(width) + t[2] * Double(height),
        ]
        let ys = [
            t[3], t[3] + t[4] * Double(width), t[3] + t[5] * Double(height),
            t[3] + t[4] * Double(width) + t[5] * Double(height),
        ]
        return Rect(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
    }

    /// The dataset's CRS as WKT, or nil when it has none.
    var crsDefinition: String? {
        guard let reference = gdal.GDALGetSpatialRef(handle) else { return nil }
        var wkt: UnsafeMutablePointer<CChar>?
        guard gdal.OSRExportToWkt(reference, &wkt) == OGRERR_NONE, let wkt else { return nil }
        defer { gdal.VSIFree(wkt) }
        let text = String(cString: wkt)
        return text.isEmpty ? nil : text
    }

    /// The band whose colour interpretation is alpha, if any.
    var alphaBand: Int? {
        (1...bandCount).first {
            gdal.GDALGetRasterColorInterpretation(gdal.GDALGetRasterBand(handle, Int32($0))) == GCI_AlphaBand
        }
    }

    func hasPalette(band: Int) -> Bool {
        gdal.GDALGetRasterColorTable(gdal.GDALGetRasterBand(handle, Int32(band))) != nil
    }

    /// The values a grey band spans: 0...255 for bytes, else the band's (approximate) range.
    func valueRange(band: Int) -> ClosedRange<Double> {
        let raster = gdal.GDALGetRasterBand(handle, Int32(band))
        if gdal.GDALGetRasterDataType(raster) == GDT_Byte { return 0...255 }
        var range = [0.0, 0.0]
        GDALRuntime.resetError()
        _ = gdal.GDALComputeRasterMinMax(raster, 1, &range)
        guard range[0].isFinite, range[1].isFinite, range[1] > range[0] else { return 0...255 }
        return range[0]...range[1]
    }
}
