import Foundation
import Geodesy

/// Reading a layer and its rules; every error names its JSON path.
extension MapDocument {
    static let layerKeys = [
        "name", "title", "source", "layer", "where", "sql", "srs", "visible", "minScale", "maxScale", "minZoom",
        "maxZoom",
        "scalesSymbols", "minSize",
        "maxSize", "filter", "opacity", "compositing", "rules", "marker", "line", "fill", "label",
    ]
    static let ruleKeys = [
        "name", "filter", "else", "stop", "minScale", "maxScale", "minZoom", "maxZoom", "marker", "line", "fill",
        "label",
    ]
    static let symbolKeys = ["marker", "line", "fill", "label"]

    static func decodeLayer(_ node: JSONNode, baseDirectory: String) throws -> Layer {
        if isRasterLayer(node) { return try decodeRasterLayer(node, baseDirectory: baseDirectory) }
        let object = try node.object(allowed: layerKeys)
        let name = try object.required("name").string()
        guard !name.isEmpty else { throw object["name"]!.error("a layer name cannot be empty") }
        if let n = object["source"], case .string(let text) = n.value, text.trimmingCharacters(in: .whitespaces).isEmpty
        {
            // Said plainly: an empty path would otherwise name the document's own folder.
            throw n.error("the source is empty: give the path of a data file or a connection string")
        }
        var layer = Layer(name: name, source: try layerSource(object, baseDirectory: baseDirectory))
        if let n = object["title"] {
            layer.title = try n.string()
            guard !layer.title!.isEmpty else { throw n.error("a layer title cannot be empty: leave the key out") }
        }
        if let n = object["visible"] { layer.visible = try n.bool() }
        layer.scales = try scaleRange(object)
        if let n = object["scalesSymbols"] { layer.scalesSymbols = try n.bool() }
        if let n = object["minSize"] { layer.minSize = try n.size() }
        if let n = object["maxSize"] {
            layer.maxSize = try n.size()
            guard layer.maxSize > 0 else { throw n.error("maxSize must be above zero") }
        }
        if layer.minSize > layer.maxSize {
            throw (object["minSize"] ?? object["maxSize"]!).error(
                "minSize (\(DecimalFormat.shortest(layer.minSize))) is above maxSize (\(DecimalFormat.shortest(layer.maxSize)))"
            )
        }
        if let n = object["filter"] { layer.filter = try n.filter() }
        if let n = object["opacity"] { layer.opacity = try n.opacity() }
        if let n = object["compositing"] { layer.compositing = try n.enumValue(Compositing.self) }
        let symbols = symbolKeys.filter { object[$0] != nil }
        if let n = object["rules"] {
            if let key = symbols.first {
                throw object[key]!.error("a layer with rules gives its symbols in its rules, not beside them")
            }
            let items = try n.array()
            guard !items.isEmpty else { throw n.error("give at least one rule") }
            layer.rules = try items.map { try decodeRule($0, baseDirectory: baseDirectory) }
        } else {
            guard !symbols.isEmpty else {
                throw node.error(
                    "layer \(DocumentError.quote(name)) has no symbol: give it a marker, line, fill or label, or rules")
            }
            // Symbols beside the layer's keys: one rule that draws every feature.
            layer.rules = [try symbolsRule(object, baseDirectory: baseDirectory)]
        }
        return layer
    }

    static func decodeRule(_ node: JSONNode, baseDirectory: String) throws -> Rule {
        let object = try node.object(allowed: ruleKeys)
        var rule = try symbolsRule(object, baseDirectory: baseDirectory)
        if let n = object["name"] { rule.name = try n.string() }
        if let n = object["filter"] { rule.filter = try n.filter() }
        if let n = object["else"] {
            rule.isElse = try n.bool()
            if rule.isElse, object["filter"] != nil {
                throw n.error("an else rule draws the features no other rule drew: it takes no filter")
            }
        }
        if let n = object["stop"] { rule.stop = try n.bool() }
        rule.scales = try scaleRange(object)
        guard rule.drawsFeatures || rule.label != nil else {
            throw node.error("the rule has no symbol: give it a marker, line, fill or label")
        }
        return rule
    }

    private static func symbolsRule(_ object: JSONObject, baseDirectory: String) throws -> Rule {
        var rule = Rule()
        if let n = object["marker"] { rule.marker = try n.markerStyle(base: baseDirectory) }
        if let n = object["line"] { rule.lines = try n.lineStyles() }
        if let n = object["fill"] { rule.fill = try n.fillStyle(base: baseDirectory) }
        if let n = object["label"] { rule.label = try n.labelStyle() }
        return rule
    }

    /// `minScale`/`maxScale` (scale denominators) or their aliases `minZoom`/`maxZoom`.
    static func scaleRange(_ object: JSONObject) throws -> ScaleRange {
        var range = ScaleRange()
        // The largest scale drawn comes from maxScale or minZoom; the smallest from minScale or maxZoom.
        if let n = object["minScale"] {
            if let other = object["maxZoom"] { throw other.error("give minScale or maxZoom, not both") }
            range.lower = ScaleRange.Bound(scale: try n.positiveNumber(allowZero: true), inclusive: true)
        }
        if let n = object["maxScale"] {
            if let other = object["minZoom"] { throw other.error("give maxScale or minZoom, not both") }
            range.upper = ScaleRange.Bound(scale: try n.positiveNumber(allowZero: false), inclusive: false)
        }
        if let n = object["minZoom"] {
            range.upper = ScaleRange.Bound(scale: ZoomScale.scale(zoom: try n.number(in: 0...30)), inclusive: true)
        }
        if let n = object["maxZoom"] {
            range.lower = ScaleRange.Bound(scale: ZoomScale.scale(zoom: try n.number(in: 0...30)), inclusive: false)
        }
        if let lower = range.lower, let upper = range.upper, lower.scale >= upper.scale {
            let lowerKey = object["minScale"] != nil ? "minScale" : "maxZoom"
            let upperKey = object["maxScale"] != nil ? "maxScale" : "minZoom"
            let message =
                lowerKey == "minScale" && upperKey == "maxScale"
                ? "maxScale (\(DecimalFormat.shortest(upper.scale))) must be greater than minScale (\(DecimalFormat.shortest(lower.scale)))"
                : lowerKey == "maxZoom" && upperKey == "minZoom"
                    ? "maxZoom must be greater than minZoom"
                    : "\(lowerKey) and \(upperKey) leave no scale to draw at"
            throw object[upperKey]!.error(message)
        }
        return range
    }
}
