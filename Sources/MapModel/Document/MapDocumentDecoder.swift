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

    /// `$schema` names the JSON Schema for editors; it is read and ignored.
    static let keys = [
        "$schema", "name", "attribution", "background", "referenceScale", "fonts", "systemFonts", "layers", "grid",
        "grids",
    ]

    public static func decode(_ root: JSONNode, baseDirectory: String) throws -> MapDocument {
        let object = try root.object(allowed: keys)
        var map = MapDocument(path: root.file)
        _ = try object["$schema"]?.string()
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
        map.grids = try decodeGrids(object, root: root)
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
}
