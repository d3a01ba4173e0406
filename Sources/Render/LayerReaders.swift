import Geodesy
import MapModel

/// One render worker's access to the map's sources: a reader per distinct source, opened on
/// first use (an indexed source's reader holds a dataset handle or a database connection of
/// its own), and the label anchors of indexed sources, computed once per feature.
final class LayerReaders {
    private let map: LoadedMap
    private var readers: [ObjectIdentifier: any FeatureReader] = [:]
    private var anchors = BudgetedCache<AnchorKey, PlanePoint?>(budget: LayerReaders.anchorBytes)
    /// Features simplified for the resolutions being drawn.
    private let generalised = GeneralisedFeatures()
    /// The most bytes of anchors kept (about 170,000 of them).
    static let anchorBytes = 8 << 20

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
        try reader(layer).features(in: rect)
    }

    private func reader(_ layer: Int) throws -> any FeatureReader {
        let source = map.sources[layer]
        let key = ObjectIdentifier(source)
        if let reader = readers[key] { return reader }
        let reader = try source.makeReader()
        readers[key] = reader
        return reader
    }

    /// `feature` of layer `layer` as drawn with pixels of `pixel` Web Mercator metres (see
    /// `Generaliser`): nil when none of it is a pixel large; unchanged without a pixel size.
    /// `area`: the extent the view read (see `GeneralisedFeatures.feature`).
    func generalised(layer: Int, _ feature: Feature, pixel: Double?, area: Rect) -> Feature? {
        guard let pixel else { return feature }
        return generalised.feature(feature, of: ObjectIdentifier(map.sources[layer]), pixel: pixel, area: area)
    }

    /// Generalised features kept now (for tests).
    var generalisedCount: Int { generalised.count }

    /// Calls `body` with each feature of layer `layer` whose bounds intersect `rect`, in no set
    /// order, one at a time (see `FeatureReader.visitFeatures`).
    func visitFeatures(layer: Int, in rect: Rect, _ body: (Feature) throws -> Void) throws {
        try reader(layer).visitFeatures(in: rect, body)
    }

    /// As `visitFeatures(layer:in:_:)`, for a caller that draws each feature only as
    /// `generalised(layer:_:pixel:area:)` makes it for `pixel`: a line that simplification
    /// would reduce to its ends may come as those ends alone (see `FeatureReader`).
    func visitFeatures(layer: Int, in rect: Rect, generalisedFor pixel: Double?, _ body: (Feature) throws -> Void)
        throws
    {
        let tolerance = pixel.map { Generaliser(pixel: $0).tolerance }
        try reader(layer).visitFeatures(in: rect, collapsingLinesWithin: tolerance, body)
    }

    /// Where a feature of a labelled layer is labelled (nil without geometry).
    func anchor(layer: Int, _ feature: Feature) -> PlanePoint? {
        if let known = map.labelAnchors[layer] { return known[feature.index] }
        let key = AnchorKey(source: ObjectIdentifier(map.sources[layer]), feature: feature.index)
        if let known = anchors[key] { return known }
        let anchor = LabelPoint.anchor(for: feature)
        // A point is its own anchor: keeping it would cost more than finding it, and 300,000
        // places would fill the budget where a tenth of them does not.
        if feature.geometries.contains(where: { $0.kind != .point }) { anchors.insert(anchor, for: key, bytes: 0) }
        return anchor
    }
}
