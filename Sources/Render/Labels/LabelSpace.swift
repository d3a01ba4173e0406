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
    /// The engine and the placements made from the layers and not yet handed to it (bounded
    /// by `madeBudget`): this space's own, or shared by the workers of the map
    /// (`PlacementShare`) when made with `sharing`. What is drawn (a shaped text, a few
    /// kilobytes in Pango) is made again for the placed ones alone; 300,000 places once kept
    /// 300,000 shaped texts per worker.
    private var share: PlacementShare {
        if let madeShare { return madeShare }
        let made = makeShare()
        madeShare = made
        return made
    }
    private var madeShare: PlacementShare?

    private func makeShare() -> PlacementShare {
        let key = PlacementShare.Key(
            resolution: view.resolution, dpi: view.dpi, plane: view.plane?.identifier, edge: maker.edge,
            area: maker.area)
        let make = { [unowned self] in
            let engine = PlacementEngine(source: self)
            // A block's side is at least the engine's chunk, so that a chunk reads at most four
            // blocks of each layer even where symbols are huge (a large scale past `maxSize`).
            let view = view
            let waiting = WaitingPlacements(
                blockSide: max(LabelSpace.blockSize, engine.chunkSize), chunkSide: engine.chunkSize,
                budget: LabelSpace.madeBudget, mercator: { view.mercatorBounds(ofGlobalPixels: $0) }, read: reader)
            return PlacementShare(key: key, engine: engine, waiting: waiting)
        }
        return sharing ? PlacementShare.shared(by: map, key: key, make: make) : make()
    }
    /// Whether the engine is shared with the other workers of the map.
    private let sharing: Bool
    /// Reads a block for the waiting placements with this space's readers, keeping only the
    /// placements of each feature: a block at a low zoom holds a whole layer.
    private lazy var reader: WaitingPlacements.Reader = { [unowned self] layer, area, found in
        try readers.visitFeatures(layer: layer, in: area) { feature in
            found(feature.index, feature.bounds) { self.placements(layer: layer, feature) }
        }
    }

    /// Runs `body` with the engine and the waiting placements, under the share's lock, with
    /// this space as their source.
    private func asking<T>(_ body: (PlacementEngine, WaitingPlacements) throws -> T) rethrows -> T {
        try share.withLock {
            share.engine.source = self
            share.waiting.read = reader
            return try body(share.engine, share.waiting)
        }
    }

    /// The engine, for tests and counts (not thread-safe when shared).
    var engine: PlacementEngine { share.engine }
    var madeBytes: Int { share.withLock { share.waiting.bytes } }
    /// The most placements one list waiting for the engine copied as it grew.
    var peakWaitingPageCapacity: Int { share.withLock { share.waiting.peakPageCapacity } }
    /// What placed candidates draw, by feature, for the views to come.
    private var drawn = BudgetedCache<FeatureKey, [LabelCandidate]>(budget: LabelSpace.drawnBudget)
    /// For each layer: how far (pixels) a candidate's boxes can reach from its anchor; nil for
    /// a layer with nothing to place at this scale.
    private let layerReach: [Double?]

    /// Labels smaller than this many pixels are unreadable and not drawn.
    static let minimumTextPixels = 4.0

    /// The smallest side of a block, in pixels.
    static let blockSize = 1024.0
    /// Past this many estimated bytes of placements waiting for the engine, their blocks are
    /// read afresh: memory stays bounded whatever the data.
    static let madeBudget = 16 << 20
    /// The most bytes of drawable candidates kept (shaped texts counted at `layoutBytes`).
    static let drawnBudget = 8 << 20
    /// About what a shaped label holds (a PangoLayout with its lines and glyphs).
    static let layoutBytes = 2048

    private struct FeatureKey: Hashable {
        let layer: Int
        let feature: Int
    }

    init(
        map: LoadedMap, view: View, text: TextEngine, images: ImageLibrary, readers: LayerReaders,
        obstacles: (any LabelObstacles)? = nil, sharing: Bool = false
    ) {
        self.map = map
        self.sharing = sharing
        self.view = view
        self.readers = readers
        self.obstacles = obstacles
        let edge = LabelSpace.edge(map, view)
        let maker = CandidateMaker(map: map, view: view, text: text, images: images, edge: edge)
        self.maker = maker
        layerReach = map.document.layers.indices.map { maker.places(layer: $0) ? maker.reach(layer: $0) : nil }
    }

    deinit {
        let client = ObjectIdentifier(self)
        madeShare?.withLock { madeShare?.engine.leave(client) }
    }

    /// The edge labels keep inside: a single image's, when a label asks to avoid edges.
    private static func edge(_ map: LoadedMap, _ view: View) -> Rect? {
        guard !view.isTileBlock,
            map.document.layers.contains(where: { $0.rules.contains { $0.label?.avoidEdges == true } })
        else { return nil }
        return view.globalBounds
    }

    /// Whether this space serves `other` (same resolution, density and plane, the same
    /// rendered area, and the same edge where labels keep inside one).
    func serves(_ other: View) -> Bool {
        other.resolution == view.resolution && other.dpi == view.dpi
            && other.plane?.identifier == view.plane?.identifier
            && maker.edge == LabelSpace.edge(map, other) && maker.area == CandidateMaker.area(of: other)
    }

    /// Estimated heap bytes kept between views: placement, placements and what is drawn.
    var cachedBytes: Int { asking { engine, waiting in engine.cachedBytes + waiting.bytes } + drawn.cost }

    /// Drops cached placement until at most `limit` estimated bytes are kept, with room for
    /// the next views (3/4 of it), the least recently used parts first. What is dropped is
    /// computed again when asked for, with the same result.
    func trim(toBytes limit: Int) {
        asking { engine, waiting in
            guard engine.cachedBytes + waiting.bytes + drawn.cost > limit else { return }
            if waiting.bytes + drawn.cost > limit / 2 {
                waiting.removeAll()
                drawn.removeAll()
            }
            engine.trim(toBytes: max(0, limit * 3 / 4 - waiting.bytes - drawn.cost))
        }
    }

    /// The placed candidates whose boxes touch `rect` (global pixels), in placement order.
    /// `progress` is told of the candidates evaluated so far in a long placement.
    func placedLabels(in rect: Rect, progress: ((Int) -> Void)? = nil) throws -> [LabelCandidate] {
        // Nothing to place at this scale: no chunks to make, not even empty ones.
        guard layerReach.contains(where: { $0 != nil }) else { return [] }
        let placed = try asking { engine, _ in
            let before = engine.evaluations
            engine.progress = progress.map { tell in { tell($0 - before) } }
            defer { engine.progress = nil }
            return try engine.placed(touching: rect, client: ObjectIdentifier(self))
        }
        // What to draw: from the cache, or made again from the block that holds the anchor
        // (the feature is there, since the anchor lies on it), each block read once.
        var found: [FeatureKey: [LabelCandidate]] = [:]
        var missing: [WaitingPlacements.BlockKey: (area: Rect, features: Set<Int>)] = [:]
        for p in placed {
            let feature = FeatureKey(layer: p.owner.layer, feature: p.owner.feature)
            guard found[feature] == nil else { continue }
            if let known = drawn[feature] {
                found[feature] = known
            } else {
                let (key, area) = block(feature.layer, p.anchor)
                missing[key, default: (area, [])].features.insert(feature.feature)
            }
        }
        for (block, (area, wanted)) in missing {
            try readers.visitFeatures(layer: block.layer, in: area) { feature in
                let featureKey = FeatureKey(layer: block.layer, feature: feature.index)
                guard wanted.contains(feature.index), found[featureKey] == nil else { return }
                let candidates = make(layer: block.layer, feature)
                found[featureKey] = candidates
                drawn.insert(candidates, for: featureKey, bytes: LabelSpace.bytes(of: candidates))
            }
        }
        return placed.compactMap { p in
            found[FeatureKey(layer: p.owner.layer, feature: p.owner.feature)]?.first { $0.id == p.id }
        }
    }

    /// The candidates of `feature` of layer `layer`, what to draw with them.
    private func make(layer: Int, _ feature: Feature) -> [LabelCandidate] {
        maker.candidates(layer: layer, feature: feature, anchor: anchor(layer: layer, feature))
    }

    /// The placements of `feature` of layer `layer` alone (point labels measured, not laid out).
    private func placements(layer: Int, _ feature: Feature) -> [PlacementCandidate] {
        maker.placements(layer: layer, feature: feature, anchor: anchor(layer: layer, feature))
    }

    private func anchor(layer: Int, _ feature: Feature) -> PlanePoint? {
        map.document.layers[layer].hasLabels ? readers.anchor(layer: layer, feature) : nil
    }

    /// Estimated heap bytes of drawable candidates: their placements and their shaped texts
    /// (shared by an owner's positions, counted once per candidate: an upper bound).
    private static func bytes(of candidates: [LabelCandidate]) -> Int {
        MemoryCost.array(candidates.count, of: LabelCandidate.self)
            + candidates.reduce(0) { $0 + bytes(of: $1.placement) + LabelSpace.layoutBytes }
    }

    /// Estimated heap bytes of a placement besides its struct: its boxes.
    static func bytes(of placement: PlacementCandidate) -> Int {
        placement.heapBytes
    }

    /// The block holding a placement's anchor, and its area in Web Mercator metres.
    private func block(_ layer: Int, _ anchor: PlanePoint) -> (key: WaitingPlacements.BlockKey, area: Rect) {
        // Read outside the lock: the blocks' sides and places never change.
        let key = share.waiting.block(layer: layer, holding: anchor)
        return (key, share.waiting.area(key))
    }
}

extension LabelSpace: PlacementSource {
    var reach: Double { layerReach.reduce(0) { max($0, $1 ?? 0) } }

    /// The candidates of the features anchored in `rect`, without those an obstacle covers.
    func candidates(anchoredIn rect: Rect) throws -> PlacementPages {
        // In pages, handed over as they are: every place held once, not a growing list.
        var found = PlacementPages()
        for (layerIndex, layerReach) in layerReach.enumerated() where layerReach != nil {
            // Asked by the engine, under the share's lock (see `asking`).
            found.append(try share.waiting.take(layer: layerIndex, anchoredIn: rect))
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
