import FileInput
import Foundation
import Geodesy

extension MapDocument {
    /// The largest map document read: documents hold styles, not data, and are kilobytes;
    /// the limit keeps a wrong file (a disk image, a log) from being read whole. docs/limits.md.
    public static let maxFileBytes = 16 << 20

    /// Reads and validates a map document. Source paths are resolved against the document's
    /// folder; the sources themselves are read by `LoadedMap`.
    public static func load(path: String) throws -> MapDocument {
        let bytes: [UInt8]
        do {
            bytes = try ReadableFile.contents(atPath: path, limit: maxFileBytes)
        } catch {
            throw DocumentError(file: path, place: "", message: error.reason)
        }
        let root = JSONNode(value: try JSONParser.parse(bytes, file: path), file: path)
        return try decode(root, baseDirectory: (path as NSString).deletingLastPathComponent)
    }

    static let keys = ["name", "attribution", "background", "referenceScale", "fonts", "systemFonts", "layers", "grid"]

    public static func decode(_ root: JSONNode, baseDirectory: String) throws -> MapDocument {
        let object = try root.object(allowed: keys)
        var map = MapDocument(path: root.file)
        map.name = try object["name"]?.string()
        map.attribution = try object["attribution"]?.string()
        if let node = object["background"] { map.background = try node.color() }
        if let node = object["referenceScale"] {
            let value = try node.number()
            guard value >= 0 else {
                throw node.error(
                    "a reference scale is a scale denominator (e.g. 50000), or 0 for none; got \(DecimalFormat.shortest(value))"
                )
            }
            map.referenceScale = value > 0 ? value : nil
        }
        if let node = object["fonts"] {
            map.fonts = try node.array().map { item in
                let path = resolve(try item.string(), against: baseDirectory)
                switch FileKind(atPath: path) {
                case .regular, .directory: return path
                case .missing: throw item.error("font file or folder not found: \(DocumentError.quote(path))")
                case let kind: throw item.error("\(DocumentError.quote(path)) is \(kind), not a font file or folder")
                }
            }
        }
        if let node = object["systemFonts"] { map.systemFonts = try node.bool() }
        if let node = object["grid"] { map.grid = try node.gridSettings() }
        let layerNodes = try object.required("layers").array()
        var names = Set<String>()
        for node in layerNodes {
            let layer = try decodeLayer(node, baseDirectory: baseDirectory)
            guard names.insert(layer.name).inserted else {
                throw node.error("a layer named \(DocumentError.quote(layer.name)) already exists")
            }
            map.layers.append(layer)
        }
        return map
    }

    static func resolve(_ path: String, against base: String) -> String {
        if path.hasPrefix("/") { return path }
        return ((base.isEmpty ? "." : base) as NSString).appendingPathComponent(path)
    }

    static let layerKeys = [
        "name", "source", "layer", "where", "sql", "srs", "visible", "minScale", "maxScale", "scalesSymbols",
        "filter", "marker", "line", "fill", "label",
    ]

    static func decodeLayer(_ node: JSONNode, baseDirectory: String) throws -> Layer {
        if isRasterLayer(node) { return try decodeRasterLayer(node, baseDirectory: baseDirectory) }
        let object = try node.object(allowed: layerKeys)
        let name = try object.required("name").string()
        guard !name.isEmpty else { throw object["name"]!.error("a layer name cannot be empty") }
        var layer = Layer(name: name, source: try layerSource(object, baseDirectory: baseDirectory))
        if let n = object["visible"] { layer.visible = try n.bool() }
        if let n = object["minScale"] { layer.minScale = try n.positiveNumber(allowZero: true) }
        if let n = object["maxScale"] { layer.maxScale = try n.positiveNumber(allowZero: false) }
        if let lo = layer.minScale, let hi = layer.maxScale, lo >= hi {
            throw object["maxScale"]!.error(
                "maxScale (\(DecimalFormat.shortest(hi))) must be greater than minScale (\(DecimalFormat.shortest(lo)))"
            )
        }
        if let n = object["scalesSymbols"] { layer.scalesSymbols = try n.bool() }
        if let n = object["filter"] { layer.filter = try n.filter() }
        if let n = object["marker"] { layer.marker = try n.markerSymbol() }
        if let n = object["line"] { layer.line = try n.lineSymbol() }
        if let n = object["fill"] { layer.fill = try n.fillSymbol() }
        if let n = object["label"] { layer.label = try n.labelSymbol() }
        if layer.marker == nil, layer.line == nil, layer.fill == nil, layer.label == nil {
            throw node.error("layer \(DocumentError.quote(name)) has no symbol: give it a marker, line, fill or label")
        }
        return layer
    }
}
