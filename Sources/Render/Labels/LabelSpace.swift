import Geodesy
import MapModel

/// Label placement for a whole map at one resolution: map labels and the markers that take
/// part in placement.
///
/// The rule is the classic greedy one: candidates are taken highest rank first and one is
/// placed unless it would overlap one already placed (or its owner already has a place).
/// Done over the whole map, that rule gives each candidate one answer, whatever view or tile
/// asks. A view therefore never runs the greedy pass itself: for each candidate touching it,
/// it asks "is any higher-ranked candidate that keeps me out placed?", which recursively
/// needs only the candidates nearby. So tiles agree with each other across their edges, a
/// label is drawn whole in every tile it touches and never twice, and the answer does not
/// depend on the metatile size or the worker.
final class LabelSpace {
    let map: LoadedMap
    /// A view at this space's resolution, density and plane, for converting positions.
    let view: View
    private let maker: CandidateMaker
    private let readers: LayerReaders
    /// Each placing layer's features by block of global pixels: those whose bounds touch the
    /// block, with their candidates made when the block is first read. Read once per block,
    /// so the many small lookups of placement do not each go to the source (a database, for
    /// an indexed source), and features themselves are not kept.
    private var blocks: [BlockKey: [(key: FeatureKey, bounds: Rect)]] = [:]
    /// For each layer: how far (pixels) a candidate's boxes can reach beyond its feature's
    /// bounds; nil for a layer with nothing to place at this scale.
    private var reach: [Double?] = []
    private var byFeature: [FeatureKey: [PlacementCandidate.ID]] = [:]
    private var candidates: [PlacementCandidate.ID: LabelCandidate] = [:]
    /// Each owner's candidates, best first.
    private var alternatives: [PlacementCandidate.Owner: [PlacementCandidate.ID]] = [:]
    private var placed: [PlacementCandidate.ID: Bool] = [:]
    private var neighbours: [PlacementCandidate.ID: [PlacementCandidate.ID]] = [:]

    /// Labels smaller than this many pixels are unreadable and not drawn.
    static let minimumTextPixels = 4.0

    /// The side of a block, in pixels.
    static let blockSize = 1024.0

    private struct FeatureKey: Hashable {
        let layer: Int
        let feature: Int
    }

    private struct BlockKey: Hashable {
        let layer: Int
        let column: Int
        let row: Int
    }

    init(map: LoadedMap, view: View, text: TextEngine, images: ImageLibrary, readers: LayerReaders) {
        self.map = map
        self.view = view
        self.readers = readers
        let edge = LabelSpace.edge(map, view)
        maker = CandidateMaker(map: map, view: view, text: text, images: images, edge: edge)
        reach = map.document.layers.indices.map { maker.places(layer: $0) ? maker.reach(layer: $0) : nil }
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
        try candidateIDs(touching: rect).filter { try isPlaced($0) }.map { candidates[$0]! }.sorted {
            $0.outranks($1)
        }
    }

    /// Candidates with a box touching `rect`, each once.
    private func candidateIDs(touching rect: Rect) throws -> [PlacementCandidate.ID] {
        var ids: [PlacementCandidate.ID] = []
        var seen = Set<FeatureKey>()
        for (layer, layerReach) in reach.enumerated() {
            guard let layerReach else { continue }
            // A candidate's boxes lie within `layerReach` of its feature's bounds.
            let search = rect.expanded(by: layerReach)
            let size = LabelSpace.blockSize
            for row in Int((search.minY / size).rounded(.down))...Int((search.maxY / size).rounded(.down)) {
                for column in Int((search.minX / size).rounded(.down))...Int((search.maxX / size).rounded(.down)) {
                    for item in try block(BlockKey(layer: layer, column: column, row: row))
                    where item.bounds.intersects(search) && seen.insert(item.key).inserted {
                        for id in byFeature[item.key]! {
                            let c = candidates[id]!.placement
                            if c.bounds.intersects(rect), c.boxes.contains(where: { $0.intersects(rect) }) {
                                ids.append(id)
                            }
                        }
                    }
                }
            }
        }
        return ids
    }

    /// The features of a layer whose bounds touch a block, their candidates made (once per
    /// feature at this resolution) as the block is read.
    private func block(_ key: BlockKey) throws -> [(key: FeatureKey, bounds: Rect)] {
        if let known = blocks[key] { return known }
        let size = LabelSpace.blockSize
        let pixels = Rect(
            minX: Double(key.column) * size, minY: Double(key.row) * size, maxX: Double(key.column + 1) * size,
            maxY: Double(key.row + 1) * size)
        var items: [(key: FeatureKey, bounds: Rect)] = []
        for feature in try readers.features(layer: key.layer, in: view.mercatorBounds(ofGlobalPixels: pixels)) {
            let featureKey = FeatureKey(layer: key.layer, feature: feature.index)
            if byFeature[featureKey] == nil { makeCandidates(featureKey, feature) }
            items.append((featureKey, MapRenderer.MapContent.pixelBounds(feature.bounds, view)))
        }
        blocks[key] = items
        return items
    }

    private func makeCandidates(_ key: FeatureKey, _ feature: Feature) {
        let anchor = map.document.layers[key.layer].hasLabels ? readers.anchor(layer: key.layer, feature) : nil
        let made = maker.candidates(layer: key.layer, feature: feature, anchor: anchor)
        for candidate in made {
            candidates[candidate.id] = candidate
            alternatives[candidate.placement.owner, default: []].append(candidate.id)
        }
        for owner in Set(made.map(\.placement.owner)) {
            alternatives[owner]!.sort { $0.position < $1.position }
        }
        byFeature[key] = made.map(\.id)
    }

    /// The candidates that keep this one out when placed: its owner's better alternatives,
    /// and higher-ranked candidates of other owners that it may not overlap.
    private func rivals(_ id: PlacementCandidate.ID) throws -> [PlacementCandidate.ID] {
        if let known = neighbours[id] { return known }
        guard let me = candidates[id]?.placement else { return [] }
        var found = alternatives[me.owner, default: []].filter { $0.position < id.position }
        found += try candidateIDs(touching: me.bounds).filter { other in
            guard other.owner != me.owner, let c = candidates[other]?.placement else { return false }
            return c.outranks(me) && me.isBlocked(by: c)
        }
        neighbours[id] = found
        return found
    }

    /// A candidate is placed when no rival of it is placed. Rank falls strictly along every
    /// step, so the walk ends; it uses its own stack, not recursion, because chains of
    /// overlapping labels can be long on dense maps.
    private func isPlaced(_ id: PlacementCandidate.ID) throws -> Bool {
        if let known = placed[id] { return known }
        var stack = [id]
        while let top = stack.last {
            if placed[top] != nil {
                stack.removeLast()
                continue
            }
            var blocked = false
            var undecided: [PlacementCandidate.ID] = []
            for rival in try rivals(top) {
                if let decided = placed[rival] {
                    if decided {
                        blocked = true
                        break
                    }
                } else {
                    undecided.append(rival)
                }
            }
            if blocked {
                placed[top] = false
                stack.removeLast()
            } else if undecided.isEmpty {
                placed[top] = true
                stack.removeLast()
            } else {
                stack += undecided  // decide these first, then look at `top` again
            }
        }
        return placed[id]!
    }
}
