import Geodesy

/// Features held compactly, for sources read whole (GeoJSON, CSV, a Shapefile without an
/// index): every vertex of every feature in one flat array of coordinates, parts, polygons and
/// geometries as 32-bit offsets into it, attribute keys and values interned (a key or a
/// repeated value such as `"primary"` is stored once, and features point at it). A feature
/// costs its vertices (16 bytes each) and a few dozen bytes more, where a `Feature` value costs
/// an array per geometry and a string per attribute; features are made from the table only
/// when a view asks for them.
public struct FeatureTable: Sendable {
    /// Interleaved x, y of every vertex.
    private var coordinates: [Double] = []
    /// First vertex of each part, and a final end.
    private var partVertices: [UInt32] = [0]
    /// Each geometry's kind.
    private var kinds: [Geometry.Kind] = []
    /// First part of each geometry, and a final end.
    private var geometryParts: [UInt32] = [0]
    /// First polygon of each geometry (in `polygonParts`), and a final end.
    private var geometryPolygons: [UInt32] = [0]
    /// First part (ring) of each polygon.
    private var polygonParts: [UInt32] = []
    /// First geometry of each feature, and a final end.
    private var featureGeometries: [UInt32] = [0]
    /// First attribute of each feature, and a final end.
    private var featureAttributes: [UInt32] = [0]
    /// Each attribute's key and value, as indices into `keys` and `values`.
    private var attributeKeys: [UInt32] = []
    private var attributeValues: [UInt32] = []
    private var keys: [String] = []
    private var values: [PropertyValue] = []
    /// Interning while the table is built; emptied by `finished()`.
    private var keyIndex: [String: UInt32] = [:]
    private var valueIndex: [ValueKey: UInt32] = [:]
    /// Each feature's bounds: what the spatial index is built from.
    private(set) var bounds: [Rect] = []
    /// The kinds of non-empty geometry the table holds.
    public private(set) var geometryKinds: Set<Geometry.Kind> = []

    /// Values are interned by their bits: 0 and -0 stay apart.
    private enum ValueKey: Hashable {
        case null
        case bool(Bool)
        case number(UInt64)
        case string(String)
    }

    /// The most memory a table may take, about: a source read whole that needs more belongs
    /// in an indexed format (GeoPackage, FlatGeobuf), read per view. docs/limits.md.
    public static let maxBytes = 2 << 30

    /// The memory the table takes, about: 16 bytes a vertex, 4 a part, ring, geometry,
    /// feature and attribute, 32 for each feature's bounds, and each distinct key and value.
    public private(set) var byteCount = 0

    public init() {}

    public var count: Int { featureGeometries.count - 1 }

    /// The number of vertices held.
    public var vertexCount: Int { coordinates.count / 2 }

    /// Whether `feature` can be added without the table growing past `maxBytes`.
    public func fits(_ feature: Feature) -> Bool {
        let adding = feature.geometries.reduce(0) {
            $0 + 16 * $1.vertexCount + 4 * ($1.partCount + $1.polygonCount) + 13
        }
        return byteCount + adding <= FeatureTable.maxBytes
    }

    /// Why a feature that does not fit is refused.
    public static let fullMessage =
        "the features read up to here take more than \(maxBytes >> 30) GiB, the limit for a source read whole: "
        + "convert it to GeoPackage or FlatGeobuf, which are read per view (docs/limits.md)"

    /// Adds a feature; its index becomes its place in the table.
    public mutating func append(_ feature: Feature) {
        let coordinatesBefore = coordinates.count
        for geometry in feature.geometries {
            let firstPart = UInt32(partVertices.count - 1)
            let firstVertex = UInt32(coordinates.count / 2)
            coordinates.append(contentsOf: geometry.coordinates)
            for part in 1..<geometry.partStarts.count {
                partVertices.append(firstVertex + UInt32(geometry.partStarts[part]))
            }
            if geometry.kind == .polygon {
                for polygon in 0..<geometry.polygonCount {
                    polygonParts.append(firstPart + UInt32(geometry.polygonStarts[polygon]))
                }
            }
            kinds.append(geometry.kind)
            geometryParts.append(UInt32(partVertices.count - 1))
            geometryPolygons.append(UInt32(polygonParts.count))
            if geometry.vertexCount > 0 { geometryKinds.insert(geometry.kind) }
        }
        featureGeometries.append(UInt32(kinds.count))
        for (key, value) in feature.properties.entries {
            attributeKeys.append(intern(key))
            attributeValues.append(intern(value))
        }
        featureAttributes.append(UInt32(attributeKeys.count))
        bounds.append(feature.bounds)
        byteCount +=
            8 * (coordinates.count - coordinatesBefore) + 13 * feature.geometries.count
            + 8 * feature.properties.entries.count + 40
    }

    private mutating func intern(_ key: String) -> UInt32 {
        if let known = keyIndex[key] { return known }
        byteCount += 32 + key.utf8.count
        let index = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = index
        return index
    }

    private mutating func intern(_ value: PropertyValue) -> UInt32 {
        let key: ValueKey
        switch value {
        case .null: key = .null
        case .bool(let b): key = .bool(b)
        case .number(let n): key = .number(n.bitPattern)
        case .string(let s): key = .string(s)
        }
        if let known = valueIndex[key] { return known }
        if case .string(let text) = value { byteCount += text.utf8.count }
        byteCount += 48
        let index = UInt32(values.count)
        values.append(value)
        valueIndex[key] = index
        return index
    }

    /// The table as kept: the interning dictionaries and the bounds (which go into the spatial
    /// index) dropped, spare capacity released.
    public func finished() -> FeatureTable {
        var table = self
        table.keyIndex = [:]
        table.valueIndex = [:]
        table.bounds = []
        table.coordinates = Array(coordinates)
        table.partVertices = Array(partVertices)
        table.attributeValues = Array(attributeValues)
        table.attributeKeys = Array(attributeKeys)
        return table
    }

    /// Feature `i`, made from the table.
    public func feature(_ i: Int) -> Feature { feature(i, index: i) }

    /// Feature `i`, made from the table, with `index` as its index (a table holding features
    /// of another source keeps their own indices beside it).
    public func feature(_ i: Int, index: Int) -> Feature {
        var geometries: [Geometry] = []
        let geometryRange = Int(featureGeometries[i])..<Int(featureGeometries[i + 1])
        geometries.reserveCapacity(geometryRange.count)
        for g in geometryRange {
            let firstPart = Int(geometryParts[g])
            let endPart = Int(geometryParts[g + 1])
            let firstVertex = Int(partVertices[firstPart])
            let endVertex = Int(partVertices[endPart])
            let polygonStarts: [Int] =
                kinds[g] == .polygon
                ? (Int(geometryPolygons[g])..<Int(geometryPolygons[g + 1])).map { Int(polygonParts[$0]) - firstPart }
                    + [endPart - firstPart] : []
            geometries.append(
                Geometry(
                    kind: kinds[g], coordinates: Array(coordinates[(2 * firstVertex)..<(2 * endVertex)]),
                    partStarts: (firstPart...endPart).map { Int(partVertices[$0]) - firstVertex },
                    polygonStarts: polygonStarts))
        }
        return Feature(index: index, geometries: geometries, properties: properties(i))
    }

    /// Every attribute name any feature has, once each.
    public var attributeNames: [String] { keys }

    /// The attributes of feature `i`.
    public func properties(_ i: Int) -> Properties {
        Properties(
            (Int(featureAttributes[i])..<Int(featureAttributes[i + 1])).map {
                (keys[Int(attributeKeys[$0])], values[Int(attributeValues[$0])])
            })
    }
}
