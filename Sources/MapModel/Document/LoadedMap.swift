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
    /// What looks wrong but does not stop the render, one line each: an attribute a layer's
    /// filter or symbols read that no feature of its source has (a misspelt name draws nothing).
    public let warnings: [String]

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
            if layer.hasLabels {
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
            layer.rules.compactMap(\.label).map { LoadedMap.longestText($0, store) }.max() ?? 0
        }
        self.warnings = LoadedMap.unknownAttributes(document, stores)
    }

    public static func load(path: String) throws -> LoadedMap {
        try LoadedMap(document: try MapDocument.load(path: path))
    }

    /// The longest text a label gives any feature, in characters. A text that changes with the
    /// zoom is measured at every whole zoom from 0 to 24.
    static func longestText(_ label: LabelStyle, _ store: FeatureStore) -> Int {
        let zooms: [Double] = label.text.readsZoom ? (0...24).map(Double.init) : [0]
        var longest = 0
        for feature in store.features {
            for zoom in zooms {
                let text = label.text.resolve(EvaluationContext(zoom: zoom, properties: feature.properties))
                longest = max(longest, label.transform.apply(text).unicodeScalars.count)
            }
        }
        return longest
    }

    /// One line for each attribute a layer reads that no feature of its source has.
    static func unknownAttributes(_ document: MapDocument, _ stores: [FeatureStore]) -> [String] {
        var known: [ObjectIdentifier: Set<String>] = [:]
        var warnings: [String] = []
        for (i, (layer, store)) in zip(document.layers, stores).enumerated() {
            let names = layer.attributeNames
            guard !names.isEmpty else { continue }
            let present =
                known[ObjectIdentifier(store)]
                ?? Set(store.features.flatMap { $0.properties.entries.map(\.key) })
            known[ObjectIdentifier(store)] = present
            var reported = Set<String>()
            for name in names where !present.contains(name) && reported.insert(name).inserted {
                let near = present.sorted().first { EditDistance.atMost(1, name, $0) }
                let hint = near.map { " (did you mean \"\($0)\"?)" } ?? ""
                warnings.append(
                    DocumentError(
                        file: document.path, place: "layers[\(i)]",
                        message:
                            "no feature of \((layer.source as NSString).lastPathComponent) has the attribute \"\(name)\"\(hint)"
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
