import Foundation
import Geodesy

/// A map document with its sources read: each distinct source file loaded once into a
/// feature store, and label anchors computed once for labelled layers.
public final class LoadedMap: Sendable {
    public let document: MapDocument
    /// One store per layer (layers sharing a source share the store).
    public let stores: [FeatureStore]
    /// For each layer with a label: the anchor of each feature (nil where it has no geometry).
    public let labelAnchors: [[PlanePoint?]?]
    /// For each layer: the longest label text (in characters), which bounds how far a
    /// label can reach from its anchor; 0 for layers without labels.
    public let longestLabel: [Int]

    public init(document: MapDocument) throws {
        self.document = document
        var byPath: [String: FeatureStore] = [:]
        var anchorsByPath: [String: [PlanePoint?]] = [:]
        var stores: [FeatureStore] = []
        var anchors: [[PlanePoint?]?] = []
        for (i, layer) in document.layers.enumerated() {
            let store: FeatureStore
            if let existing = byPath[layer.source] {
                store = existing
            } else {
                guard FileManager.default.fileExists(atPath: layer.source) else {
                    throw DocumentError(
                        file: document.path, place: "layers[\(i)].source", message: "no such file: \(layer.source)")
                }
                store = try FeatureStore.load(path: layer.source)
                byPath[layer.source] = store
            }
            stores.append(store)
            if layer.label != nil {
                if anchorsByPath[layer.source] == nil {
                    anchorsByPath[layer.source] = store.features.map { LabelPoint.anchor(for: $0) }
                }
                anchors.append(anchorsByPath[layer.source])
            } else {
                anchors.append(nil)
            }
        }
        self.stores = stores
        self.labelAnchors = anchors
        self.longestLabel = zip(document.layers, stores).map { layer, store in
            guard let label = layer.label else { return 0 }
            return store.features.reduce(0) { max($0, label.text.resolve($1.properties).unicodeScalars.count) }
        }
    }

    public static func load(path: String) throws -> LoadedMap {
        try LoadedMap(document: try MapDocument.load(path: path))
    }
}
