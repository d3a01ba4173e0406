import Geodesy

/// The features of a source read once, projected to Web Mercator metres, held compactly
/// (`FeatureTable`) with a spatial index. Immutable after loading, so render workers share it
/// freely: it is its own reader. Features are made from the table as views ask for them.
public final class FeatureStore: FeatureSource, FeatureReader, Sendable {
    public let path: String
    private let table: FeatureTable
    private let index: SpatialIndex
    public let bounds: Rect
    public let geometryKinds: Set<Geometry.Kind>?
    /// Held in memory: a query never leaves the process.
    public var isIndexed: Bool { false }

    public init(path: String, table: FeatureTable) {
        self.path = path
        index = SpatialIndex(table.bounds)
        bounds = table.bounds.reduce(Rect.empty) { $0.union($1) }
        geometryKinds = table.geometryKinds
        self.table = table.finished()
    }

    public convenience init(path: String, features: [Feature]) {
        var table = FeatureTable()
        for feature in features { table.append(feature) }
        self.init(path: path, table: table)
    }

    /// Reads a GeoJSON file with the strict reader, a feature at a time.
    public static func load(
        path: String, displayName: String? = nil, coordinates: GeoJSONCoordinates = .fromFile(resolver: nil),
        progress: ReadingProgress? = nil
    ) throws -> FeatureStore {
        FeatureStore(
            path: path,
            table: try GeoJSONReader.readTable(
                path: path, displayName: displayName, coordinates: coordinates, progress: progress))
    }

    public var count: Int { table.count }

    /// Feature `i` (its index is `i`).
    public func feature(_ i: Int) -> Feature { table.feature(i) }

    /// The attributes of feature `i`, without making its geometry.
    public func properties(_ i: Int) -> Properties { table.properties(i) }

    /// Every attribute name any feature has.
    public var attributeNames: [String] { table.attributeNames }

    /// Every feature, made at once: for tests and small sources.
    public var features: [Feature] { (0..<count).map(table.feature) }

    /// Indices of the features whose bounds intersect `rect`, in file order. (Features without
    /// geometry have empty bounds and never intersect.)
    public func query(_ rect: Rect) -> [Int] { index.search(rect) }

    public func makeReader() -> any FeatureReader { self }

    public func features(in rect: Rect) -> [Feature] { query(rect).map(table.feature) }

    public func visitFeatures(in rect: Rect, _ body: (Feature) throws -> Void) rethrows {
        for i in query(rect) { try body(table.feature(i)) }
    }

    public func longestLabel(_ text: LabelText) -> Int {
        (0..<count).reduce(0) { max($0, text.resolve(table.properties($1)).unicodeScalars.count) }
    }
}
