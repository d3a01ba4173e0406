import FileInput
import Geodesy

/// Reads a GeoJSON file (RFC 7946: a FeatureCollection, a Feature or a bare Geometry, in
/// longitude/latitude WGS84) into features projected to Web Mercator metres.
/// Errors name the file and the JSON path of the offending value, e.g.
/// `cities.geojson: features[12].geometry.coordinates[1]: latitude 95 is out of range (-90 to 90)`.
public enum GeoJSONReader {
    /// The largest GeoJSON file read. The whole file is parsed in memory: about 7 times its
    /// size for polygons, 12 for many small points, up to 28 for pathological nesting, so at
    /// most about 3.6 GB. Larger data belongs in an indexed format. docs/limits.md.
    public static let maxFileBytes = 128 << 20

    public static func read(path: String, displayName: String? = nil) throws -> [Feature] {
        let name = displayName ?? path
        let bytes: [UInt8]
        do {
            bytes = try ReadableFile.contents(atPath: path, limit: maxFileBytes)
        } catch {
            throw DocumentError(file: name, place: "", message: error.reason)
        }
        let root = try JSONParser.parse(bytes, file: name)
        return try features(from: JSONNode(value: root, file: name))
    }

    public static func features(from root: JSONNode) throws -> [Feature] {
        guard case .object = root.value else {
            throw root.error("not GeoJSON: expected an object, got \(root.value.typeDescription)")
        }
        let object = try root.object(allowed: root.keysForGeoJSON)
        let type = try object.required("type").string()
        switch type {
        case "FeatureCollection":
            let items = try object.required("features").array()
            var features: [Feature] = []
            features.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                features.append(try feature(item, index: index))
            }
            return features
        case "Feature":
            return [try feature(root, index: 0)]
        case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection":
            return [Feature(index: 0, geometries: try geometries(root), properties: Properties())]
        default:
            throw object["type"]!.error("not GeoJSON: unknown type \(DocumentError.quote(type))")
        }
    }

    private static func feature(_ node: JSONNode, index: Int) throws -> Feature {
        let object = try node.object(allowed: node.keysForGeoJSON)
        let type = try object.required("type").string()
        guard type == "Feature" else {
            throw object["type"]!.error("expected \"Feature\", got \(DocumentError.quote(type))")
        }
        var properties = Properties()
        if let props = object["properties"] {
            guard case .object(let members) = props.value else {
                throw props.error("expected an object or null, got \(props.value.typeDescription)")
            }
            properties = Properties(members.map { ($0.key, propertyValue($0.value)) })
        }
        let geometry = try object["geometry"].map { try geometries($0) } ?? []
        return Feature(index: index, geometries: geometry, properties: properties)
    }

    private static func propertyValue(_ value: JSONValue) -> PropertyValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array, .object: return .string(JSONWriter.text(value))
        }
    }

    /// The geometries of a geometry object: one, or several for a GeometryCollection.
    private static func geometries(_ node: JSONNode) throws -> [Geometry] {
        let object = try node.object(allowed: node.keysForGeoJSON)
        let type = try object.required("type").string()
        if type == "GeometryCollection" {
            return try object.required("geometries").array().flatMap { try geometries($0) }
        }
        let coords = try object.required("coordinates")
        var builder = GeometryBuilder(node: coords)
        switch type {
        case "Point":
            try builder.position(coords.value, path: [])
            builder.endPart()
            return [builder.build(.point)]
        case "MultiPoint":
            for (i, p) in try builder.list(coords.value, path: []).enumerated() {
                try builder.position(p, path: [i])
                builder.endPart()
            }
            return [builder.build(.point)]
        case "LineString":
            try builder.line(coords.value, path: [])
            return [builder.build(.line)]
        case "MultiLineString":
            for (i, line) in try builder.list(coords.value, path: []).enumerated() {
                try builder.line(line, path: [i])
            }
            return [builder.build(.line)]
        case "Polygon":
            try builder.polygon(coords.value, path: [])
            return [builder.build(.polygon)]
        case "MultiPolygon":
            for (i, polygon) in try builder.list(coords.value, path: []).enumerated() {
                try builder.polygon(polygon, path: [i])
            }
            return [builder.build(.polygon)]
        default:
            throw object["type"]!.error("not a GeoJSON geometry type: \(DocumentError.quote(type))")
        }
    }
}

extension JSONNode {
    /// GeoJSON allows foreign members, so any key is accepted; this lists the keys present.
    fileprivate var keysForGeoJSON: [String] {
        if case .object(let members) = value { return members.map(\.key) }
        return []
    }
}

/// Collects projected vertices while walking GeoJSON coordinate arrays. Paths are built only
/// when an error is reported: building them per vertex would dominate the reading time.
private struct GeometryBuilder {
    let node: JSONNode
    var coordinates: [Double] = []
    var partStarts: [Int] = [0]
    var polygonStarts: [Int] = [0]

    init(node: JSONNode) { self.node = node }

    func error(_ path: [Int], _ message: String) -> DocumentError {
        let suffix = path.map { "[\($0)]" }.joined()
        return DocumentError(file: node.file, place: node.path + suffix, message: message)
    }

    func list(_ value: JSONValue, path: [Int]) throws -> [JSONValue] {
        guard case .array(let items) = value else {
            throw error(path, "expected an array, got \(value.typeDescription)")
        }
        return items
    }

    mutating func position(_ value: JSONValue, path: [Int]) throws {
        guard case .array(let items) = value, items.count >= 2 else {
            throw error(path, "expected a position [longitude, latitude]")
        }
        guard case .number(let lon) = items[0], case .number(let lat) = items[1] else {
            throw error(path, "a position's longitude and latitude must be numbers")
        }
        guard lon >= -180, lon <= 180 else {
            throw error(path, "longitude \(formatNumber(lon)) is out of range (-180 to 180)")
        }
        guard lat >= -90, lat <= 90 else {
            throw error(path, "latitude \(formatNumber(lat)) is out of range (-90 to 90)")
        }
        coordinates.append(WebMercator.x(longitude: lon))
        coordinates.append(WebMercator.y(latitude: lat))
    }

    mutating func endPart() { partStarts.append(coordinates.count / 2) }

    mutating func line(_ value: JSONValue, path: [Int]) throws {
        let points = try list(value, path: path)
        guard points.count >= 2 else {
            throw error(path, "a LineString needs at least 2 positions, got \(points.count)")
        }
        for (i, p) in points.enumerated() { try position(p, path: path + [i]) }
        endPart()
    }

    /// Rings are closed implicitly when the file leaves them open (as GDAL does).
    mutating func polygon(_ value: JSONValue, path: [Int]) throws {
        let rings = try list(value, path: path)
        guard !rings.isEmpty else { throw error(path, "a Polygon needs at least an exterior ring") }
        for (r, ring) in rings.enumerated() {
            let points = try list(ring, path: path + [r])
            guard points.count >= 3 else {
                throw error(path + [r], "a ring needs at least 4 positions, got \(points.count)")
            }
            for (i, p) in points.enumerated() { try position(p, path: path + [r, i]) }
            endPart()
        }
        polygonStarts.append(partStarts.count - 1)
    }

    func build(_ kind: Geometry.Kind) -> Geometry {
        Geometry(
            kind: kind, coordinates: coordinates, partStarts: partStarts,
            polygonStarts: kind == .polygon ? polygonStarts : [])
    }
}
