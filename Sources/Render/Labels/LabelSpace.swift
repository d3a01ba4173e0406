import Geodesy
import MapModel

/// Label placement for a whole map at one resolution: map labels and the markers that take
/// part in placement.
///
/// Every view at this resolution (a tile, a metatile, an image, a `serve` request) gets the
/// same answer for the same label, computed from the candidates near it (see
/// `PlacementEngine`). So tiles agree with each other across their edges, a label is drawn
/// whole in every tile it touches and never twice, and the answer does not depend on the
/// metatile size or the worker.
///
/// This space makes the candidates (`CandidateMaker`: the label and marker styles) and hands
/// them to the engine; candidates overlapping an obstacle (a grid label drawn over the map)
/// are left out.
final class LabelSpace {
    let map: LoadedMap
    /// A view at this space's resolution, density and plane, for converting positions.
    let view: View
    private let maker: CandidateMaker
    private let readers: LayerReaders
    /// Boxes map labels keep clear of, if any.
    let obstacles: (any LabelObstacles)?
    /// Each placing layer's features by block of global pixels: those the source finds in the
    /// block, with their candidates made when the block is first read. Read once per block,
    /// so the many small lookups of placement do not each go to the source (a database, for
    /// an indexed source), and features themselves are not kept.
    private var blocks: [BlockKey: [FeatureKey]] = [:]
    /// The candidates of the features in `blocks`, by feature. Together with `blocks`, bounded
    /// by `candidateLimit`: past it both are read afresh.
    private var made: [FeatureKey: [LabelCandidate]] = [:]
    private var madeCount = 0
    /// For each layer: how far (pixels) a candidate's boxes can reach from its anchor; nil for
    /// a layer with nothing to place at this scale.
    private let layerReach: [Double?]
    private(set) lazy var engine = PlacementEngine(source: self)

    /// Labels smaller than this many pixels are unreadable and not drawn.
    static let minimumTextPixels = 4.0

    /// The smallest side of a block, in pixels.
    static let blockSize = 1024.0
    /// The side of a block: at least the engine's chunk, so that a chunk reads at most four
    /// blocks of each layer even where symbols are huge (a large scale past `maxSize`).
    private lazy var blockSide = max(LabelSpace.blockSize, engine.chunkSize)
    /// Past this many candidates kept with the blocks, the blocks are read afresh: memory
    /// stays bounded.
    static let candidateLimit = 1_000_000

    private struct FeatureKey: Hashable {
        let layer: Int
        let feature: Int
    }

    private struct BlockKey: Hashable {
        let layer: Int
        let column: Int
        let row: Int
    }

    init(
        map: LoadedMap, view: View, text: TextEngine, images: ImageLibrary, readers: LayerReaders,
        obstacles: (any LabelObstacles)? = nil
    ) {
        self.map = map
        self.view = view
        self.readers = readers
        self.obstacles = obstacles
        let edge = LabelSpace.edge(map, view)
        let maker = CandidateMaker(map: map, view: view, text: text, images: images, edge: edge)
        self.maker = maker
        layerReach = map.document.layers.indices.map { maker.places(layer: $0) ? maker.reach(layer: $0) : nil }
    }

    /// The edge labels keep inside: a single image's, when a label asks to avoid edges.
    private static func edge(_ map: LoadedMap, _ view: View) -> Rect? {
        guard !view.isTileBlock,
            map.document.layers.contains(where: { $0.rules.contains { $0.label?.avoidEdges == true } })
        else { return nil }
        return view.globalBounds
    }

    /// Whether this space serves `other` (same resolution, density and plane, and the same
    /// edge where labels keep inside one).
    func serves(_ other: View) -> Bool {
        other.resolution == view.resolution && other.dpi == view.dpi
            && other.plane?.identifier == view.plane?.identifier
            && maker.edge == LabelSpace.edge(map, other)
    }

    /// The placed candidates whose boxes touch `rect` (global pixels), in placement order.
    func placedLabels(in rect: Rect) throws -> [LabelCandidate] {
        try engine.placed(touching: rect).compactMap { try candidate($0) }
    }

    /// What to draw for a placed candidate: from the cache, or made again from the block that
    /// holds its anchor (its feature is there, since the anchor lies on the feature).
    private func candidate(_ placed: PlacementCandidate) throws -> LabelCandidate? {
        let feature = FeatureKey(layer: placed.owner.layer, feature: placed.owner.feature)
        if made[feature] == nil { _ = try block(key(feature.layer, placed.anchor.x, placed.anchor.y)) }
        return made[feature]?.first { $0.id == placed.id }
    }

    private func key(_ layer: Int, _ x: Double, _ y: Double) -> BlockKey {
        BlockKey(
            layer: layer, column: Int((x / blockSide).rounded(.down)), row: Int((y / blockSide).rounded(.down)))
    }

    /// The features of a layer the source finds in a block, their candidates made (once per
    /// feature while cached) as the block is read.
    private func block(_ key: BlockKey) throws -> [FeatureKey] {
        if let known = blocks[key] { return known }
        let size = blockSide
        let pixels = Rect(
            minX: Double(key.column) * size, minY: Double(key.row) * size, maxX: Double(key.column + 1) * size,
            maxY: Double(key.row + 1) * size)
        let features = try readers.features(layer: key.layer, in: view.mercatorBounds(ofGlobalPixels: pixels))
        if madeCount > LabelSpace.candidateLimit {
            // Start again before making this block's candidates, so that they all stay.
            blocks.removeAll()
            made.removeAll()
            madeCount = 0
        }
        let hasLabels = map.document.layers[key.layer].hasLabels
        var keys: [FeatureKey] = []
        for feature in features {
            let featureKey = FeatureKey(layer: key.layer, feature: feature.index)
            if made[featureKey] == nil {
                let anchor = hasLabels ? readers.anchor(layer: key.layer, feature) : nil
                let candidates = maker.candidates(layer: key.layer, feature: feature, anchor: anchor)
                made[featureKey] = candidates
                madeCount += max(1, candidates.count)
            }
            keys.append(featureKey)
        }
        blocks[key] = keys
        return keys
    }
}

extension LabelSpace: PlacementSource {
    var reach: Double { layerReach.reduce(0) { max($0, $1 ?? 0) } }

    /// The candidates of the features anchored in `rect`, without those an obstacle covers.
    func candidates(anchoredIn rect: Rect) throws -> [PlacementCandidate] {
        var found: [PlacementCandidate] = []
        for (layerIndex, layerReach) in layerReach.enumerated() where layerReach != nil {
            let first = key(layerIndex, rect.minX, rect.minY)
            let last = key(layerIndex, rect.maxX, rect.maxY)
            var seen = Set<FeatureKey>()
            for row in first.row...last.row {
                for column in first.column...last.column {
                    for feature in try block(BlockKey(layer: layerIndex, column: column, row: row))
                    where seen.insert(feature).inserted {
                        for c in made[feature] ?? []
                        where rect.contains(x: c.placement.anchor.x, y: c.placement.anchor.y) {
                            found.append(c.placement)
                        }
                    }
                }
            }
        }
        guard let obstacles, !found.isEmpty else { return found }
        let area = rect.expanded(by: reach)
        let boxes = obstacles.boxes(touching: area)
        guard !boxes.isEmpty else { return found }
        let buckets = BoxBuckets(area: area, cellSize: 32, items: Array(boxes.indices), boxes: { [boxes[$0]] })
        return found.filter { candidate in
            candidate.allowOverlap
                || candidate.boxes.allSatisfy { box in
                    buckets.forEach(touching: box) { !boxes[$0].overlaps(box) }
                }
        }
    }
}
