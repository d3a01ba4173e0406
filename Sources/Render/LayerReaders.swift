import Geodesy
import MapModel

/// One render worker's access to the map's sources: a reader per distinct source, opened on
/// first use (an indexed source's reader holds a dataset handle or a database connection of
/// its own), and the label anchors of indexed sources, computed once per feature.
final class LayerReaders {
    private let map: LoadedMap
    private var readers: [ObjectIdentifier: any FeatureReader] = [:]
    private var anchors: [AnchorKey: PlanePoint?] = [:]
    /// Past this many anchors kept, the cache starts afresh: memory stays bounded.
    static let anchorLimit = 1_000_000

    private struct AnchorKey: Hashable {
        let source: ObjectIdentifier
        let feature: Int
    }

    init(map: LoadedMap) {
        self.map = map
    }

    /// The features of layer `layer` whose bounds intersect `rect` (Web Mercator metres), in
    /// ascending index.
    func features(layer: Int, in rect: Rect) throws -> [Feature] {
        let source = map.sources[layer]
        let key = ObjectIdentifier(source)
        if let reader = readers[key] { return try reader.features(in: rect) }
        let reader = try source.makeReader()
        readers[key] = reader
        return try reader.features(in: rect)
    }

    /// Where a feature of a labelled layer is labelled (nil without geometry).
    func anchor(layer: Int, _ feature: Feature) -> PlanePoint? {
        if let known = map.labelAnchors[layer] { return known[feature.index] }
        let key = AnchorKey(source: ObjectIdentifier(map.sources[layer]), feature: feature.index)
        if let known = anchors[key] { return known }
        if anchors.count >= LayerReaders.anchorLimit { anchors.removeAll(keepingCapacity: true) }
        let anchor = LabelPoint.anchor(for: feature)
        anchors[key] = anchor
        return anchor
    }
}
