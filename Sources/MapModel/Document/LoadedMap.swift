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
            if layer.label != nil, entry.anchors == nil, let store = entry.source as? FeatureStore {
                entry.anchors = store.features.map { LabelPoint.anchor(for: $0) }
            }
            if layer.raster == nil { bySource[layer.source] = entry }
            sources.append(entry.source)
            anchors.append(layer.label != nil ? entry.anchors : nil)
        }
        self.sources = sources
        self.labelAnchors = anchors
        self.longestLabel = try zip(document.layers, sources).map { layer, source in
            guard let label = layer.label else { return 0 }
            return try source.longestLabel(label.text)
        }
    }

    public static func load(path: String, opener: any SourceOpener = GeoJSONFiles()) throws -> LoadedMap {
        try LoadedMap(document: try MapDocument.load(path: path), opener: opener)
    }

    /// A layer none of whose symbols can draw any geometry its source holds would draw nothing:
    /// a fill over points, a marker over polygons. Labels go on every kind.
    static func checkDrawable(_ layer: Layer, _ index: Int, _ source: any FeatureSource, _ document: MapDocument)
        throws
    {
        guard layer.label == nil, let kinds = source.geometryKinds, !kinds.isEmpty else { return }
        var drawn: Set<Geometry.Kind> = []
        if layer.fill != nil { drawn.formUnion([.polygon]) }
        if layer.line != nil { drawn.formUnion([.line, .polygon]) }
        if layer.marker != nil { drawn.insert(.point) }
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
}
