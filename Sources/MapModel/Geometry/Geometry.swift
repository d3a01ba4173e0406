import Geodesy

/// A feature's geometry in projected metres (Web Mercator), stored flat for speed:
/// all vertices in one array, parts (lines or rings) as index ranges into it.
public struct Geometry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case point, line, polygon }

    public let kind: Kind
    /// Interleaved x, y in metres.
    public let coordinates: [Double]
    /// Start vertex of each part (a point, a line or a ring) plus a final end index,
    /// so part `i` is vertices `partStarts[i] ..< partStarts[i+1]`.
    public let partStarts: [Int]
    /// For polygons: the first part (ring) of each polygon plus a final end index. The
    /// first ring of a polygon is its exterior, the rest are holes.
    public let polygonStarts: [Int]
    public let bounds: Rect

    public init(kind: Kind, coordinates: [Double], partStarts: [Int], polygonStarts: [Int] = []) {
        self.kind = kind
        self.coordinates = coordinates
        self.partStarts = partStarts
        self.polygonStarts = polygonStarts
        var bounds = Rect.empty
        var i = 0
        while i < coordinates.count {
            bounds.include(x: coordinates[i], y: coordinates[i + 1])
            i += 2
        }
        self.bounds = bounds
    }

    public var partCount: Int { partStarts.count - 1 }
    public var vertexCount: Int { coordinates.count / 2 }

    public func partRange(_ part: Int) -> Range<Int> { partStarts[part]..<partStarts[part + 1] }

    public var polygonCount: Int { max(0, polygonStarts.count - 1) }

    /// The rings (part indices) of polygon `p`: the exterior first, then the holes.
    public func ringRange(ofPolygon p: Int) -> Range<Int> { polygonStarts[p]..<polygonStarts[p + 1] }

    public func x(_ vertex: Int) -> Double { coordinates[2 * vertex] }
    public func y(_ vertex: Int) -> Double { coordinates[2 * vertex + 1] }
}

/// One GeoJSON feature: its geometries (a GeometryCollection may hold several kinds) and attributes.
public struct Feature: Sendable {
    /// The feature's index in its source file, used in error messages and as a stable order.
    public let index: Int
    public let geometries: [Geometry]
    public let properties: Properties
    public let bounds: Rect

    public init(index: Int, geometries: [Geometry], properties: Properties) {
        self.index = index
        self.geometries = geometries
        self.properties = properties
        self.bounds = geometries.reduce(Rect.empty) { $0.union($1.bounds) }
    }
}
