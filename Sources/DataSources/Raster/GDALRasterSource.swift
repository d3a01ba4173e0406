import CGDAL
import Geodesy
import MapModel

/// A raster layer's dataset, opened and checked once when the map is opened: that GDAL reads
/// it, that it has the band the style asks for, that it is georeferenced (or the layer gives
/// `srs` and `geotransform`). Render workers each read it through their own `RasterReader`
/// (GDAL dataset handles are not thread-safe). It holds no features: the raster is drawn by
/// Render's raster painter, not as features.
public final class GDALRasterSource: FeatureSource {
    /// How the dataset's bands become pixels.
    public enum Kind: Sendable, Equatable {
        /// Red, green and blue bands (and the alpha band, if any) drawn as they are.
        case colours(bands: [Int], alpha: Int?)
        /// A paletted band, expanded to its colours.
        case palette(band: Int)
        /// One band of values, through a colour ramp, as grey, or shaded.
        case values(band: Int, alpha: Int?)
    }

    public let path: String
    public let kind: Kind
    /// The footprint in Web Mercator metres: views outside it draw nothing of the layer.
    public let bounds: Rect
    /// For grey rasters: the values drawn black and white (0 and 255 for bytes, else the
    /// band's range).
    public let greyRange: ClosedRange<Double>
    let srs: String?
    let geotransform: [Double]?
    let nodataOverride: Double?

    public var isIndexed: Bool { true }
    public var geometryKinds: Set<Geometry.Kind>? { nil }
    public func makeReader() throws -> any FeatureReader { NoFeatures() }
    public func longestLabel(_ text: LabelText) throws -> Int { 0 }

    /// Opens and checks the raster of layer `index`; errors are `SourceProblem`s naming the key.
    init(layer: Layer, style: RasterStyle) throws(SourceProblem) {
        path = layer.source.dataset
        srs = layer.source.srs
        geotransform = style.geotransform
        nodataOverride = style.nodata
        let dataset = try RasterDataset(path: path, srs: srs, geotransform: geotransform)
        let count = dataset.bandCount
        let alpha = dataset.alphaBand
        if let band = style.band {
            guard band <= count else {
                throw SourceProblem(
                    "band", "\(path) has \(count) band\(count == 1 ? "" : "s"); there is no band \(band)")
            }
            kind = .values(band: band, alpha: alpha)
        } else if style.colors != nil || style.hillshade != nil {
            kind = .values(band: 1, alpha: alpha)
        } else if count - (alpha == nil ? 0 : 1) >= 3 {
            kind = .colours(bands: [1, 2, 3], alpha: alpha)
        } else if dataset.hasPalette(band: 1) {
            kind = .palette(band: 1)
        } else {
            kind = .values(band: 1, alpha: alpha)
        }
        if case .values(let band, _) = kind, style.colors == nil, style.hillshade == nil {
            greyRange = dataset.valueRange(band: band)
        } else {
            greyRange = 0...255
        }
        guard let crs = srs ?? dataset.crsDefinition else {
            throw SourceProblem(
                "raster",
                "\(path) has no coordinate reference system: give layer \"\(layer.name)\" one with \"srs\", "
                    + "such as \"srs\": \"EPSG:4326\"")
        }
        let projector: MercatorProjector
        do {
            projector = try MercatorProjector(try SourceCRS(crs))
        } catch {
            throw SourceProblem(srs != nil ? "srs" : "raster", "\(path): \(error.message)")
        }
        guard let footprint = projector.mercatorBounds(ofSource: dataset.extent) else {
            throw SourceProblem("raster", "\(path): its extent cannot be converted to Web Mercator")
        }
        bounds = footprint
    }

    /// A reader for the calling thread, with its own dataset handles.
    public func makeRasterReader() throws -> RasterReader {
        let dataset: RasterDataset
        do {
            dataset = try RasterDataset(path: path, srs: srs, geotransform: geotransform)
        } catch {
            throw RasterError(message: error.message)
        }
        return try RasterReader(source: self, dataset: dataset)
    }

    private final class NoFeatures: FeatureReader {
        func features(in rect: Rect) throws -> [Feature] { [] }
    }
}

/// A raster that could not be read while drawing (after it opened well when the map was opened).
public struct RasterError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
