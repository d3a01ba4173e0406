import Geodesy

/// The features of a source read once, projected to Web Mercator metres, with a spatial
/// index. Immutable after loading, so render workers share it freely: it is its own reader.
public final class FeatureStore: FeatureSource, FeatureReader, Sendable {
    public let path: String
    public let features: [Feature]
    private let index: SpatialIndex
    public let bounds: Rect
    /// Held in memory: a query never leaves the process.
    public var isIndexed: Bool { false }

    public init(path: String, features: [Feature]) {
        self.path = path
        self.features = features
        self.index = SpatialIndex(features.map(\.bounds))
        self.bounds = features.reduce(Rect.empty) { $0.union($1.bounds) }
    }

    public static func load(
        path: String, displayName: String? = nil, coordinates: GeoJSONCoordinates = .fromFile(resolver: nil)
    ) throws -> FeatureStore {
        FeatureStore(
            path: path, features: try GeoJSONReader.read(path: path, displayName: displayName, coordinates: coordinates)
        )
    }

    /// Indices of the features whose bounds intersect `rect`, in file order.
    public func query(_ rect: Rect) -> [Int] {
        // Features without geometry have empty bounds and never intersect.
        index.search(rect).filter { !features[$0].bounds.isEmpty }
    }

    public var geometryKinds: Set<Geometry.Kind>? {
        Set(features.lazy.flatMap { $0.geometries.lazy.filter { $0.vertexCount > 0 }.map(\.kind) })
    }

    public func makeReader() -> any FeatureReader { self }

    public func features(in rect: Rect) -> [Feature] { query(rect).map { features[$0] } }

    public func longestLabel(_ text: LabelText) -> Int {
        features.reduce(0) { max($0, text.resolve($1.properties).unicodeScalars.count) }
    }
}
