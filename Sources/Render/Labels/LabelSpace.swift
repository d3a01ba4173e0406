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

    private struct FeatureKey: Hashable {
        let layer: Int
        let feature: Int
    }

    init(map: LoadedMap, view: View, text: TextEngine, images: ImageLibrary) {
        self.map = map
        self.view = view
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
    func placedLabels(in rect: Rect) -> [LabelCandidate] {
        candidateIDs(touching: rect).filter { isPlaced($0) }.map { candidates[$0]! }.sorted { $0.outranks($1) }
    }

    /// Candidates with a box touching `rect`.
    private func candidateIDs(touching rect: Rect) -> [PlacementCandidate.ID] {
        var ids: [PlacementCandidate.ID] = []
        for (layer, layerReach) in reach.enumerated() {
            guard let layerReach else { continue }
            let metres = view.mercatorBounds(ofGlobalPixels: rect.expanded(by: layerReach))
            for feature in map.stores[layer].query(metres) {
                for id in candidates(FeatureKey(layer: layer, feature: feature)) {
                    let c = candidates[id]!.placement
                    if c.bounds.intersects(rect), c.boxes.contains(where: { $0.intersects(rect) }) { ids.append(id) }
                }
            }
        }
        return ids
    }

    /// A feature's candidates at this resolution, made once and kept.
    private func candidates(_ key: FeatureKey) -> [PlacementCandidate.ID] {
        if let known = byFeature[key] { return known }
        let made = maker.candidates(layer: key.layer, feature: key.feature)
        for candidate in made {
            candidates[candidate.id] = candidate
            alternatives[candidate.placement.owner, default: []].append(candidate.id)
        }
        for owner in Set(made.map(\.placement.owner)) {
            alternatives[owner]!.sort { $0.position < $1.position }
        }
        byFeature[key] = made.map(\.id)
        return byFeature[key]!
    }

    /// The candidates that keep this one out when placed: its owner's better alternatives,
    /// and higher-ranked candidates of other owners that it may not overlap.
    private func rivals(_ id: PlacementCandidate.ID) -> [PlacementCandidate.ID] {
        if let known = neighbours[id] { return known }
        guard let me = candidates[id]?.placement else { return [] }
        var found = alternatives[me.owner, default: []].filter { $0.position < id.position }
        found += candidateIDs(touching: me.bounds).filter { other in
            guard other.owner != me.owner, let c = candidates[other]?.placement else { return false }
            return c.outranks(me) && me.isBlocked(by: c)
        }
        neighbours[id] = found
        return found
    }

    /// A candidate is placed when no rival of it is placed. Rank falls strictly along every
    /// step, so the walk ends; it uses its own stack, not recursion, because chains of
    /// overlapping labels can be long on dense maps.
    private func isPlaced(_ id: PlacementCandidate.ID) -> Bool {
        if let known = placed[id] { return known }
        var stack = [id]
        while let top = stack.last {
            if placed[top] != nil {
                stack.removeLast()
                continue
            }
            var blocked = false
            var undecided: [PlacementCandidate.ID] = []
            for rival in rivals(top) {
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
