import Foundation

extension MapDocument {
    /// Keys of the object form of `source` (a database).
    static let sourceKeys = ["connection", "table", "sql"]

    /// A layer's `source` (a path, a connection string, or `{"connection", "table" | "sql"}`)
    /// with the layer's `layer`, `where`, `sql` and `srs`.
    static func layerSource(_ layer: JSONObject, baseDirectory: String) throws -> LayerSource {
        let node = try layer.required("source")
        var source: LayerSource
        if case .object = node.value {
            let object = try node.object(allowed: sourceKeys)
            source = LayerSource(dataset: try nonEmpty(try object.required("connection")), isConnection: true)
            source.layer = try object["table"].map(nonEmpty)
            source.sql = try object["sql"].map(nonEmpty)
            if source.layer != nil, source.sql != nil {
                throw node.error("give either \"table\" or \"sql\", not both")
            }
        } else {
            let text = try nonEmpty(node)
            if looksLikeConnection(text) {
                source = LayerSource(dataset: text, isConnection: true)
            } else {
                source = LayerSource(dataset: resolve(text, against: baseDirectory))
            }
        }
        if let n = layer["layer"] {
            guard source.layer == nil else { throw n.error("the source already names its table") }
            source.layer = try nonEmpty(n)
        }
        if let n = layer["sql"] {
            guard source.sql == nil else { throw n.error("the source already has an SQL statement") }
            source.sql = try nonEmpty(n)
        }
        if source.layer != nil, source.sql != nil {
            throw layer["sql"]!.error("give either a layer (or table) or an SQL statement, not both")
        }
        source.attributeFilter = try layer["where"].map(nonEmpty)
        source.srs = try layer["srs"].map(nonEmpty)
        return source
    }

    private static func nonEmpty(_ node: JSONNode) throws -> String {
        let text = try node.string()
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw node.error("expected a non-empty string")
        }
        return text
    }

    /// GDAL connection strings start with a driver prefix and a colon (`PG:dbname=gis`,
    /// `MySQL:`, `WFS:`); a path never does on Linux unless it is relative and odd.
    static func looksLikeConnection(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let prefix = text[..<colon]
        return prefix.count >= 2 && prefix.first!.isLetter
            && prefix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
