import CGDAL
import Geodesy
import MapModel

/// The pixels of a view's grid: a north-up grid of `width` x `height` square pixels of
/// `resolution` CRS units whose top-left corner is (`minX`, `maxY`) in `crs`.
public struct RasterGrid: Sendable, Equatable {
    public var crs: String
    public var minX: Double
    public var maxY: Double
    public var resolution: Double
    public var width: Int
    public var height: Int

    public init(crs: String, minX: Double, maxY: Double, resolution: Double, width: Int, height: Int) {
        self.crs = crs
        self.minX = minX
        self.maxY = maxY
        self.resolution = resolution
        self.width = width
        self.height = height
    }
}

/// One thread's reader of a raster layer: warps the raster into a view's grid with GDAL's
/// warper (gdalwarp's own code, so overviews are used when zoomed out, nodata and alpha
/// become transparency, and the resampling is gdalwarp's). The transformer is exact (`-et 0`)
/// so that a pixel's value does not depend on the extent of the grid it is warped in: a tile
/// gets the same bytes whichever metatile it is drawn in.
public final class RasterReader {
    public let source: GDALRasterSource
    private let dataset: RasterDataset
    /// The bands the warper reads (selected, palette expanded), as an in-memory VRT.
    private let selection: GDALDatasetH
    private var references: [String: OGRSpatialReferenceH] = [:]
    /// Whether the raster's CRS is each grid CRS met so far.
    private var sameCRS: [String: Bool] = [:]

    /// An overview at most this much coarser than a view's pixels stands in for the finer
    /// level GDAL would read (see `overviewArguments`).
    static let overviewTolerance = 1.05

    init(source: GDALRasterSource, dataset: RasterDataset) throws {
        self.source = source
        self.dataset = dataset
        var arguments = ["-of", "VRT"]
        switch source.kind {
        case .colours(let bands, let alpha):
            for band in bands + (alpha.map { [$0] } ?? []) { arguments += ["-b", "\(band)"] }
        case .palette(let band):
            arguments += ["-b", "\(band)", "-expand", "rgba"]
        case .values(let band, let alpha):
            arguments += ["-b", "\(band)"]
            if let alpha, alpha != band { arguments += ["-b", "\(alpha)"] }
        }
        GDALRuntime.resetError()
        let options = CommandOptions(arguments)
        guard let translateOptions = options.withArgv({ gdal.GDALTranslateOptionsNew($0, nil) }) else {
            throw RasterError(message: "\(source.path): \(GDALRuntime.lastError() ?? "bad band selection")")
        }
        defer { gdal.GDALTranslateOptionsFree(translateOptions) }
        var usage: Int32 = 0
        guard let vrt = gdal.GDALTranslate("", dataset.handle, translateOptions, &usage) else {
            throw RasterError(message: "\(source.path): \(GDALRuntime.lastError() ?? "cannot select its bands")")
        }
        selection = vrt
    }

    deinit {
        gdal.GDALClose(selection)
        for reference in references.values { gdal.OSRDestroySpatialReference(reference) }
    }

    /// Red, green, blue and alpha (not premultiplied), row by row; alpha 0 outside the data.
    public func warpColours(_ grid: RasterGrid, resampling: RasterStyle.Resampling) throws -> [UInt8] {
        let target = try warp(grid, bands: 4, type: GDT_Byte, resampling: resampling, nodata: nil)
        defer { gdal.GDALClose(target) }
        var pixels = [UInt8](repeating: 0, count: grid.width * grid.height * 4)
        let status = pixels.withUnsafeMutableBytes { buffer in
            gdal.GDALDatasetRasterIO(
                target, GF_Read, 0, 0, Int32(grid.width), Int32(grid.height), buffer.baseAddress,
                Int32(grid.width), Int32(grid.height), GDT_Byte, 4, nil, 4, Int32(grid.width * 4), 1)
        }
        guard status == CE_None else { throw failure("reading the warped pixels") }
        return pixels
    }

    /// The band's values and an alpha (0 where there is no data: nodata, alpha, outside).
    public func warpValues(_ grid: RasterGrid, resampling: RasterStyle.Resampling, nodata: Double?) throws -> (
        values: [Float], alpha: [UInt8]
    ) {
        let target = try warp(grid, bands: 2, type: GDT_Float32, resampling: resampling, nodata: nodata)
        defer { gdal.GDALClose(target) }
        let count = grid.width * grid.height
        var values = [Float](repeating: 0, count: count)
        var alpha = [UInt8](repeating: 0, count: count)
        let read = { (band: Int32, buffer: UnsafeMutableRawPointer?, type: GDALDataType) in
            gdal.GDALRasterIO(
                gdal.GDALGetRasterBand(target, band), GF_Read, 0, 0, Int32(grid.width), Int32(grid.height), buffer,
                Int32(grid.width), Int32(grid.height), type, 0, 0)
        }
        let first = values.withUnsafeMutableBytes { read(1, $0.baseAddress, GDT_Float32) }
        let second = alpha.withUnsafeMutableBytes { read(2, $0.baseAddress, GDT_Byte) }
        guard first == CE_None, second == CE_None else { throw failure("reading the warped values") }
        return (values, alpha)
    }

    /// A new in-memory dataset of the grid with the raster warped into it; the last band is alpha.
    private func warp(
        _ grid: RasterGrid, bands: Int, type: GDALDataType, resampling: RasterStyle.Resampling, nodata: Double?
    ) throws -> GDALDatasetH {
        // GDAL is loaded and set up: the reader's dataset is open.
        GDALRuntime.resetError()
        guard
            let target = gdal.GDALCreate(
                gdal.GDALGetDriverByName("MEM"), "", Int32(grid.width), Int32(grid.height), Int32(bands), type, nil)
        else { throw failure("creating a \(grid.width)x\(grid.height) image") }
        var transform = [grid.minX, grid.resolution, 0, grid.maxY, 0, -grid.resolution]
        _ = gdal.GDALSetGeoTransform(target, &transform)
        _ = gdal.GDALSetSpatialRef(target, try reference(grid.crs))
        var arguments = ["-r", resampling.rawValue, "-et", "0", "-dstalpha"] + (try overviewArguments(grid))
        if let nodata = nodata ?? source.nodataOverride { arguments += ["-srcnodata", "\(nodata)"] }
        let options = CommandOptions(arguments)
        guard let warpOptions = options.withArgv({ gdal.GDALWarpAppOptionsNew($0, nil) }) else {
            gdal.GDALClose(target)
            throw failure("warp options")
        }
        defer { gdal.GDALWarpAppOptionsFree(warpOptions) }
        var sources: [GDALDatasetH?] = [selection]
        var usage: Int32 = 0
        let result = sources.withUnsafeMutableBufferPointer {
            gdal.GDALWarp(nil, target, 1, $0.baseAddress, warpOptions, &usage)
        }
        guard result != nil, !GDALRuntime.failed else {
            gdal.GDALClose(target)
            throw failure("warping")
        }
        return target
    }

    /// gdalwarp's `-ovr` for `grid`: none (GDAL's automatic choice, the coarsest overview at
    /// least as fine as the grid's pixels) unless the raster is in the grid's CRS and an
    /// overview at most 5% coarser than the grid's pixels exists; then that overview.
    ///
    /// Why: when a view's pixels are a hair finer than an overview's (a 10 m raster's 20 m
    /// overview at zoom 13, whose pixels are 19.1 m), GDAL reads the level below, twice as
    /// fine: four times the pixels read and decompressed, and a resampling kernel stretched
    /// over 4 x 4 of them, for a result a 5% finer source barely changes. On the benchmark
    /// raster (scripts/bench-raster.sh) this was most of the warping time at every zoom. The
    /// choice depends on the resolution alone, so every block of a zoom reads the same level.
    private func overviewArguments(_ grid: RasterGrid) throws -> [String] {
        guard try isInCRS(grid.crs) else { return [] }
        let transform = dataset.geotransform
        guard transform[2] == 0, transform[4] == 0, transform[1] != 0 else { return [] }
        let target = grid.resolution / abs(transform[1])
        let band = gdal.GDALGetRasterBand(selection, 1)
        let width = Double(gdal.GDALGetRasterXSize(selection))
        var chosen: (level: Int32, ratio: Double)?
        for level in 0..<gdal.GDALGetOverviewCount(band) {
            guard let overview = gdal.GDALGetOverview(band, level) else { continue }
            let ratio = width / Double(gdal.GDALGetRasterBandXSize(overview))
            if ratio <= target * RasterReader.overviewTolerance, ratio > chosen?.ratio ?? 0 {
                chosen = (level, ratio)
            }
        }
        // At least as fine as the grid's pixels: GDAL's own choice.
        guard let chosen, chosen.ratio > target else { return [] }
        return ["-ovr", "\(chosen.level)"]
    }

    private func isInCRS(_ crs: String) throws -> Bool {
        if let known = sameCRS[crs] { return known }
        let grid = try reference(crs)
        let same = gdal.GDALGetSpatialRef(selection).map { gdal.OSRIsSame($0, grid) != 0 } ?? false
        sameCRS[crs] = same
        return same
    }

    private func reference(_ crs: String) throws -> OGRSpatialReferenceH {
        if let known = references[crs] { return known }
        let reference = gdal.OSRNewSpatialReference(nil)!
        guard gdal.OSRSetFromUserInput(reference, crs) == OGRERR_NONE else {
            gdal.OSRDestroySpatialReference(reference)
            throw RasterError(message: "unknown CRS \"\(crs)\"")
        }
        gdal.OSRSetAxisMappingStrategy(reference, OAMS_TRADITIONAL_GIS_ORDER)
        references[crs] = reference
        return reference
    }

    private func failure(_ what: String) -> RasterError {
        RasterError(message: "\(source.path): \(what) failed: \(GDALRuntime.lastError() ?? "GDAL gives no reason")")
    }
}

/// Arguments for GDAL's utility functions (GDALWarp, GDALTranslate) as the NULL-terminated
/// argv they take.
struct CommandOptions {
    let arguments: [String]

    init(_ arguments: [String]) { self.arguments = arguments }

    func withArgv<T>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        return argv.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
