import Foundation
import Geodesy

/// A map document with its sources opened: each distinct source once (layers sharing a source
/// share it), and label anchors computed once for labelled layers held in memory.
public final class LoadedMap: Sendable {
    public let document: MapDocument
    /// One source per layer.
    public let sources: [any FeatureSource]
    /// For each labelled layer whose source is held in memory (a `FeatureStore`): the anchor
    /// of each feature by index (nil where it has no geometry). Indexed sources get theirs
    /// as their features are read.
    public let labelAnchors: [[PlanePoint?]?]
    /// For each layer: the longest label text (in characters), which bounds how far a
    /// label can reach from its anchor; 0 for layers without labels.
    public let longestLabel: [Int]
    /// What looks wrong but does not stop the render, one line each: an attribute a layer's
    /// filter or symbols read that no feature of its source has (a misspelt name draws nothing).
    public let warnings: [String]

    /// Opens every layer's source with `opener`: by default GeoJSON files alone; the command
    /// line passes DataSources' opener, which reads whatever GDAL reads.
    public init(document: MapDocument, opener: any SourceOpener = GeoJSONFiles()) throws {
        self.document = document
        var bySource: [LayerSource: (source: any FeatureSource, anchors: [PlanePoint?]?)] = [:]
        var sources: [any FeatureSource] = []
        var anchors: [[PlanePoint?]?] = []
        for (i, layer) in document.layers.enumerated() {
            // A raster layer's source depends on its style (the band it draws): never shared.
            let shared = layer.raster == nil ? bySource[layer.source] : nil
            var entry = try shared ?? (opener.open(layer.source, layer: i, document: document), nil)
            try LoadedMap.checkDrawable(layer, i, entry.source, document)
            if layer.hasLabels, entry.anchors == nil, let store = entry.source as? FeatureStore {
                entry.anchors = (0..<store.count).map { LabelPoint.anchor(for: store.feature($0)) }
            }
            if layer.raster == nil { bySource[layer.source] = entry }
            sources.append(entry.source)
            anchors.append(layer.hasLabels ? entry.anchors : nil)
        }
        self.sources = sources
        self.labelAnchors = anchors
        self.longestLabel = try zip(document.layers, sources).map { layer, source in
            try layer.rules.compactMap(\.label).map { try LoadedMap.longestText($0, source) }.max() ?? 0
        }
        self.warnings = LoadedMap.unknownAttributes(document, sources)
    }

    public static func load(path: String, opener: any SourceOpener = GeoJSONFiles()) throws -> LoadedMap {
        try LoadedMap(document: try MapDocument.load(path: path), opener: opener)
    }

    /// A layer none of whose symbols can draw any geometry its source holds would draw nothing:
    /// a fill over points, a marker over polygons. Labels go on every kind.
    static func checkDrawable(_ layer: Layer, _ index: Int, _ source: any FeatureSource, _ document: MapDocument)
        throws
    {
        guard !layer.hasLabels, let kinds = source.geometryKinds, !kinds.isEmpty else { return }
        var drawn: Set<Geometry.Kind> = []
        for rule in layer.rules {
            if rule.fill != nil { drawn.formUnion([.polygon]) }
            if !rule.lines.isEmpty { drawn.formUnion([.line, .polygon]) }
            if rule.marker != nil { drawn.insert(.point) }
        }
        guard drawn.isDisjoint(with: kinds) else { return }
        let names: [Geometry.Kind: String] = [.point: "points", .line: "lines", .polygon: "polygons"]
        let held = [Geometry.Kind.point, .line, .polygon].filter(kinds.contains).map { names[$0]! }
        let wanted = [
            kinds.contains(.point) ? "a marker" : nil, kinds.contains(.line) ? "a line" : nil,
            kinds.contains(.polygon) ? "a fill or a line" : nil,
        ].compactMap { $0 }
        throw DocumentError(
            file: document.path, place: "layers[\(index)]",
            message: "the source holds only \(held.joined(separator: " and ")), which none of this layer's "
                + "symbols draws (a fill draws polygons, a line lines and outlines, a marker points): give it "
                + "\(wanted.joined(separator: " or ")), or a label")
    }

    /// The longest text a label gives any feature, in characters. Held in memory, each
    /// feature's text is made (at every whole zoom from 0 to 24 when it changes with the zoom);
    /// an indexed source measures a template that bounds it (`LabelContent.lengthBound`).
    static func longestText(_ label: LabelStyle, _ source: any FeatureSource) throws -> Int {
        guard let store = source as? FeatureStore else { return try source.longestLabel(label.text.lengthBound) }
        let zooms: [Double] = label.text.readsZoom ? (0...24).map(Double.init) : [0]
        var longest = 0
        for i in 0..<store.count {
            let properties = store.properties(i)
            for zoom in zooms {
                let text = label.text.resolve(EvaluationContext(zoom: zoom, properties: properties))
                longest = max(longest, label.transform.apply(text).unicodeScalars.count)
            }
        }
        return longest
    }

    /// One line for each attribute a layer reads that no feature of its source has. Only
    /// sources held in memory are checked: an indexed one is not read whole to find out.
    static func unknownAttributes(_ document: MapDocument, _ sources: [any FeatureSource]) -> [String] {
        var known: [ObjectIdentifier: Set<String>] = [:]
        var warnings: [String] = []
        for (i, (layer, source)) in zip(document.layers, sources).enumerated() {
            let names = layer.attributeNames
            guard !names.isEmpty, let store = source as? FeatureStore else { continue }
            let present =
                known[ObjectIdentifier(store)]
                ?? Set(store.attributeNames)
            known[ObjectIdentifier(store)] = present
            var reported = Set<String>()
            for name in names where !present.contains(name) && reported.insert(name).inserted {
                let near = present.sorted().first { EditDistance.atMost(1, name, $0) }
                let hint = near.map { " (did you mean \"\($0)\"?)" } ?? ""
                warnings.append(
                    DocumentError(
                        file: document.path, place: "layers[\(i)]",
                        message:
                            "no feature of \((layer.source.dataset as NSString).lastPathComponent) has the attribute \"\(name)\"\(hint)"
                    ).description)
            }
        }
        return warnings
    }
}

/// Whether two names are within a few single-character edits (insert, delete, replace, or
/// swap of neighbours), for suggesting the attribute a misspelt one meant.
enum EditDistance {
    static func atMost(_ limit: Int, _ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars)
        let y = Array(b.lowercased().unicodeScalars)
        guard abs(x.count - y.count) <= limit else { return false }
        var before = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var current = [i] + [Int](repeating: 0, count: y.count)
            for j in 1..<(y.count + 1) {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return (x.isEmpty ? y.count : previous[y.count]) <= limit
    }
}
