import Foundation
import Geodesy

/// A layer's features, asked for by extent. Two kinds exist: an in-memory `FeatureStore`
/// (a source read once: GeoJSON, CSV, a Shapefile without an index) and indexed sources that
/// stay where they are (a GeoPackage, a FlatGeobuf, a Shapefile with an index, PostGIS) and
/// are queried per view, so that memory follows the view and not the data.
///
/// A source is shared by every render worker; each worker reads it through its own
/// `FeatureReader`, because the handles behind an indexed source (a GDAL dataset, a database
/// connection, a PROJ context) must not be used by two threads.
public protocol FeatureSource: AnyObject, Sendable {
    /// The bounds of all features in Web Mercator metres (empty when there are none).
    var bounds: Rect { get }
    /// True when each query goes to the data (by its spatial index); false when the features
    /// are held in memory.
    var isIndexed: Bool { get }
    /// The kinds of geometry the source holds, when known without reading every feature.
    var geometryKinds: Set<Geometry.Kind>? { get }
    /// A reader for the calling thread.
    func makeReader() throws -> any FeatureReader
    /// The length (in Unicode scalars) of the longest text `text` makes for any feature, or a
    /// bound above it: how far labels can reach from their anchors, known before any view is
    /// drawn.
    func longestLabel(_ text: LabelText) throws -> Int
}

/// One thread's access to a `FeatureSource`.
public protocol FeatureReader: AnyObject {
    /// The features whose bounds intersect `rect` (Web Mercator metres), in ascending
    /// `Feature.index`: the drawing order and the labels' tie-break.
    func features(in rect: Rect) throws -> [Feature]
    /// Calls `body` with each feature whose bounds intersect `rect`, in no set order, one at a
    /// time: a view of a large source keeps what it draws (generalised, much smaller at low
    /// zoom), never every feature read at once.
    func visitFeatures(in rect: Rect, _ body: (Feature) throws -> Void) throws
    /// As `visitFeatures(in:_:)`, for a caller that draws each line only as Douglas-Peucker
    /// simplification at `tolerance` (Web Mercator metres) leaves it: a reader may hand over a
    /// line whose vertices all lie within that tolerance of one another as the first and last
    /// vertex of each part (all that the simplification keeps of it), without reading the rest.
    func visitFeatures(in rect: Rect, collapsingLinesWithin tolerance: Double?, _ body: (Feature) throws -> Void)
        throws
}

extension FeatureReader {
    public func visitFeatures(in rect: Rect, _ body: (Feature) throws -> Void) throws {
        for feature in try features(in: rect) { try body(feature) }
    }

    public func visitFeatures(
        in rect: Rect, collapsingLinesWithin tolerance: Double?, _ body: (Feature) throws -> Void
    ) throws {
        try visitFeatures(in: rect, body)
    }
}

/// Turns a layer's `source` into a `FeatureSource`. MapModel's own, `GeoJSONFiles`, reads
/// GeoJSON in longitude/latitude; DataSources' opener reads everything GDAL and PROJ can.
public protocol SourceOpener {
    /// `layer` is the index in `document.layers` of the first layer with this source, for
    /// error messages (`layers[2].source`).
    func open(_ source: LayerSource, layer: Int, document: MapDocument) throws -> any FeatureSource
}

/// Reads sources that are GeoJSON files with the strict reader (errors with line and column).
/// Without a resolver only longitude/latitude WGS84 is read; DataSources passes one made with
/// PROJ, for files whose `crs` member or layer's `srs` names another CRS.
public struct GeoJSONFiles: SourceOpener {
    public let resolver: (any CRSResolver)?
    /// Told how many features have been read, every 10,000.
    public let progress: (any StageReporter)?

    public init(resolver: (any CRSResolver)? = nil, progress: (any StageReporter)? = nil) {
        self.resolver = resolver
        self.progress = progress
    }

    public func open(_ source: LayerSource, layer: Int, document: MapDocument) throws -> any FeatureSource {
        let place = "layers[\(layer)]"
        guard !source.isConnection, source.layer == nil, source.sql == nil, source.attributeFilter == nil,
            source.srs == nil || resolver != nil
        else {
            throw DocumentError(
                file: document.path, place: place + ".source",
                message: "only GeoJSON files are read here; open the map with DataSources for other sources")
        }
        guard FileManager.default.fileExists(atPath: source.dataset) else {
            throw DocumentError(
                file: document.path, place: place + ".source", message: "no such file: \(source.dataset)")
        }
        var coordinates = GeoJSONCoordinates.fromFile(resolver: resolver)
        if let srs = source.srs, let resolver {
            do { coordinates = .given(try resolver.transform(forCRS: srs)) } catch let failure as TransformFailure {
                throw DocumentError(file: document.path, place: place + ".srs", message: failure.message)
            }
        }
        return try FeatureStore.load(
            path: source.dataset, coordinates: coordinates,
            progress: progress.map { ReadingProgress(reporter: $0, name: document.layers[layer].name) })
    }
}
