import Geodesy

/// The features of one source file, projected once to Web Mercator metres, with a spatial
/// index. Immutable after loading, so render workers share it freely.
public final class FeatureStore: Sendable {
    public let path: String
    public let features: [Feature]
    private let index: SpatialIndex
    public let bounds: Rect

    public init(path: String, features: [Feature]) {
        self.path = path
        self.features = features
        self.index = SpatialIndex(features.map(\.bounds))
        self.bounds = features.reduce(Rect.empty) { $0.union($1.bounds) }
    }

    public static func load(path: String, displayName: String? = nil) throws -> FeatureStore {
        FeatureStore(path: path, features: try GeoJSONReader.read(path: path, displayName: displayName))
    }

    /// Indices of the features whose bounds intersect `rect`, in file order.
    public func query(_ rect: Rect) -> [Int] {
        // Features without geometry have empty bounds and never intersect.
        index.search(rect).filter { !features[$0].bounds.isEmpty }
    }
}
