import Geodesy

/// Reads a GeoJSON file (RFC 7946: a FeatureCollection, a Feature or a bare Geometry, in
/// longitude/latitude WGS84, or in the CRS of its legacy `crs` member or of the layer's `srs`
/// when a resolver is given) into features projected to Web Mercator metres.
/// Errors name the file and the JSON path of the offending value, e.g.
/// `cities.geojson: features[12].geometry.coordinates[1]: latitude 95 is out of range (-90 to 90)`.
public enum GeoJSONReader {
    /// The most JSON values (numbers, strings, arrays, objects...) one feature may hold: a
    /// feature is read as a tree (about 35 bytes a value) before it goes into the compact
    /// table, so this bounds that tree to about 300 MB. 8 M values is a polygon of 2.6 M
    /// vertices. docs/limits.md.
    public static let maxValuesPerFeature = 8_000_000

    /// Every feature of a GeoJSON file, made from the compact table (for tests and small files).
    public static func read(
        path: String, displayName: String? = nil, coordinates: GeoJSONCoordinates = .fromFile(resolver: nil)
    ) throws -> [Feature] {
        let table = try readTable(path: path, displayName: displayName, coordinates: coordinates)
        return (0..<table.count).map(table.feature)
    }

    /// Reads a GeoJSON file a feature at a time, in chunks, into a compact table: the memory
    /// taken is the table's plus one feature's, whatever the file's size.
    public static func readTable(
        path: String, displayName: String? = nil, coordinates: GeoJSONCoordinates = .fromFile(resolver: nil),
        progress: ReadingProgress? = nil
    ) throws -> FeatureTable {
        try table(
            from: JSONStream(path: path, file: displayName ?? path), coordinates: coordinates, progress: progress)
    }

    /// The members of the top-level object that reading uses; the others (foreign members,
    /// which GeoJSON allows) are checked for syntax and skipped.
    private static let rootKeys: Set<String> = [
        "type", "crs", "features", "geometry", "properties", "coordinates", "geometries",
    ]

    /// Reads a document from a stream. The top-level object is read first; the features array
    /// is read as it is met, with the coordinates' transform the members before it give. When
    /// a `crs` member follows it (which changes the transform), or reading it fails, it is
    /// passed over instead, and once the top-level object is read and checked the stream goes
    /// back to the array and reads it feature by feature: the same table, and the same first
    /// error, as reading it only then, but one pass over most files instead of two.
    public static func table(
        from stream: JSONStream, coordinates: GeoJSONCoordinates = .fromFile(resolver: nil),
        progress: ReadingProgress? = nil
    ) throws -> FeatureTable {
        let file = stream.file
        let kind = try stream.kind()
        guard kind == .object else {
            throw JSONNode(value: .null, file: file).error(
                "not GeoJSON: expected an object, got \(kind.typeDescription)")
        }
        try stream.enterObject()
        var members: [JSONMember] = []
        var featuresMark: JSONStream.Mark?
        // The features read in the first pass and the transform they were read with, valid
        // while no `crs` member follows them (the transform is then the document's: making
        // one can cost as much as reading a small file, PROJ's database included).
        var readAhead: (table: FeatureTable, transform: (any CoordinateTransform)?)?
        while let key = try stream.nextKey() {
            if key == "features", try stream.kind() == .array {
                let mark = stream.mark()
                featuresMark = mark
                readAhead = try? {
                    let known = try Self.transform(of: members, file: file, coordinates)
                    return (try features(from: stream, file: file, transform: known, progress: progress), known)
                }()
                if readAhead == nil {
                    try stream.seek(mark)
                    try stream.skipValue()
                }
                members.append(JSONMember(key: key, value: .array([])))
            } else if key == "crs", featuresMark != nil, case .fromFile = coordinates {
                readAhead = nil
                members.append(JSONMember(key: key, value: try stream.readValue(limit: maxValuesPerFeature)))
            } else if rootKeys.contains(key) {
                members.append(JSONMember(key: key, value: try stream.readValue(limit: maxValuesPerFeature)))
            } else {
                try stream.skipValue()
            }
        }
        try stream.finish()
        let root = JSONNode(value: .object(members), file: file)
        let object = try root.object(allowed: root.keysForGeoJSON)
        let transform: (any CoordinateTransform)?
        if let readAhead {
            transform = readAhead.transform
        } else {
            transform = try self.transform(object, coordinates)
        }
        let type = try object.required("type").string()
        var table = FeatureTable()
        switch type {
        case "FeatureCollection":
            guard let featuresMark else {
                // Missing, null or not an array: the node says which.
                _ = try object.required("features").array()
                throw object["features"]!.error("expected an array")
            }
            if let readAhead { return readAhead.table }
            try stream.seek(featuresMark)
            table = try features(from: stream, file: file, transform: transform, progress: progress)
        case "Feature":
            try append(try feature(root, index: 0, transform), to: &table, place: root)
        case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection":
            try append(
                Feature(index: 0, geometries: try geometries(root, transform), properties: Properties()), to: &table,
                place: root)
        default:
            throw object["type"]!.error("not GeoJSON: unknown type \(DocumentError.quote(type))")
        }
        return table
    }

    /// The features of the array that is the stream's next value, read one by one.
    private static func features(
        from stream: JSONStream, file: String, transform: (any CoordinateTransform)?, progress: ReadingProgress?
    ) throws -> FeatureTable {
        var table = FeatureTable()
        try stream.enterArray()
        var index = 0
        while try stream.nextElement() {
            let node = JSONNode(
                value: try stream.readValue(limit: maxValuesPerFeature), file: file, path: "features[\(index)]")
            try append(try feature(node, index: index, transform), to: &table, place: node)
            index += 1
            progress?.read(index)
        }
        return table
    }

    /// The transform the top-level members read so far give.
    private static func transform(
        of members: [JSONMember], file: String, _ coordinates: GeoJSONCoordinates
    ) throws -> (any CoordinateTransform)? {
        let root = JSONNode(value: .object(members), file: file)
        return try transform(root.object(allowed: root.keysForGeoJSON), coordinates)
    }

    private static func append(_ feature: Feature, to table: inout FeatureTable, place: JSONNode) throws {
        guard table.fits(feature) else { throw place.error(FeatureTable.fullMessage) }
        table.append(feature)
    }

    /// Longitude/latitude names of the legacy `crs` member (GeoJSON 2008), read without PROJ.
    public static let longitudeLatitudeNames: Set<String> = [
        "urn:ogc:def:crs:OGC:1.3:CRS84", "urn:ogc:def:crs:OGC::CRS84", "OGC:CRS84", "CRS84", "EPSG:4326",
        "urn:ogc:def:crs:EPSG::4326",
    ]

    /// The transform the positions need: none for longitude/latitude.
    private static func transform(
        _ object: JSONObject, _ coordinates: GeoJSONCoordinates
    ) throws -> (any CoordinateTransform)? {
        switch coordinates {
        case .given(let transform):
            return transform
        case .fromFile(let resolver):
            guard let crs = object["crs"], !crs.isNull else { return nil }
            let member = try crs.object(allowed: crs.keysForGeoJSON)
            guard try member.required("type").string() == "name" else {
                throw crs.error("only a named crs ({\"type\": \"name\", ...}) is supported")
            }
            let nameNode = try member.required("properties").object(allowed: ["name"]).required("name")
            let name = try nameNode.string()
            guard let resolver else {
                guard longitudeLatitudeNames.contains(name) else {
                    throw nameNode.error(
                        "the crs \(DocumentError.quote(name)) is not longitude/latitude WGS84, the only one read here")
                }
                return nil
            }
            do { return try resolver.transform(forCRS: name) } catch let failure as TransformFailure {
                throw nameNode.error(failure.message)
            }
        }
    }

    private static func feature(
        _ node: JSONNode, index: Int, _ transform: (any CoordinateTransform)?
    ) throws -> Feature {
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
        let geometry = try object["geometry"].map { try geometries($0, transform) } ?? []
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
    private static func geometries(_ node: JSONNode, _ transform: (any CoordinateTransform)?) throws -> [Geometry] {
        let object = try node.object(allowed: node.keysForGeoJSON)
        let type = try object.required("type").string()
        if type == "GeometryCollection" {
            return try object.required("geometries").array().flatMap { try geometries($0, transform) }
        }
        let coords = try object.required("coordinates")
        var builder = GeometryBuilder(node: coords, transform: transform)
        switch type {
        case "Point":
            try builder.position(coords.value, path: [])
            builder.endPart()
            return [try builder.build(.point)]
        case "MultiPoint":
            for (i, p) in try builder.list(coords.value, path: []).enumerated() {
                try builder.position(p, path: [i])
                builder.endPart()
            }
            return [try builder.build(.point)]
        case "LineString":
            try builder.line(coords.value, path: [])
            return [try builder.build(.line)]
        case "MultiLineString":
            for (i, line) in try builder.list(coords.value, path: []).enumerated() {
                try builder.line(line, path: [i])
            }
            return [try builder.build(.line)]
        case "Polygon":
            try builder.polygon(coords.value, path: [])
            return [try builder.build(.polygon)]
        case "MultiPolygon":
            for (i, polygon) in try builder.list(coords.value, path: []).enumerated() {
                try builder.polygon(polygon, path: [i])
            }
            return [try builder.build(.polygon)]
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
    /// nil for longitude/latitude, projected here; else positions are kept as they are and
    /// converted when the geometry is complete.
    let transform: (any CoordinateTransform)?
    var coordinates: [Double] = []
    var partStarts: [Int] = [0]
    var polygonStarts: [Int] = [0]

    init(node: JSONNode, transform: (any CoordinateTransform)?) {
        self.node = node
        self.transform = transform
    }

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
        if transform != nil {
            coordinates.append(lon)
            coordinates.append(lat)
            return
        }
        guard lon >= -180, lon <= 180 else {
            throw error(path, "longitude \(DecimalFormat.shortest(lon)) is out of range (-180 to 180)")
        }
        guard lat >= -90, lat <= 90 else {
            throw error(path, "latitude \(DecimalFormat.shortest(lat)) is out of range (-90 to 90)")
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

    mutating func build(_ kind: Geometry.Kind) throws -> Geometry {
        if let transform {
            do { try transform.toWebMercator(&coordinates) } catch let failure as TransformFailure {
                throw error([], failure.message)
            }
        }
        return Geometry(
            kind: kind, coordinates: coordinates, partStarts: partStarts,
            polygonStarts: kind == .polygon ? polygonStarts : [])
    }
}
