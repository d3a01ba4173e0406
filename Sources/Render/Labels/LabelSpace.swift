import Geodesy
import MapModel

/// Label placement for a whole map at one resolution.
///
/// Every view at this resolution (a tile, a metatile, an image, a `serve` request) gets the
/// same answer for the same label, computed from the labels near it (see `PlacementEngine`).
/// So tiles agree with each other across their edges, a label is drawn whole in every tile it
/// touches and never twice, and the answer does not depend on the metatile size or the worker.
///
/// This space makes the candidates (text, font, box: the label style) and hands them to the
/// engine; labels overlapping an obstacle (a grid label drawn over the map) are left out.
final class LabelSpace {
    let map: LoadedMap
    /// A view at this space's resolution, density and plane, for converting positions.
    let view: View
    private let text: TextEngine
    private let measure: LabelTextMeasure
    /// Boxes map labels keep clear of, if any.
    let obstacles: (any LabelObstacles)?
    /// For each layer: how far (pixels) a label's box can reach from its anchor; nil for a
    /// layer without labels or not drawn at this scale.
    private let layerReach: [Double?]
    private let scales: [SymbolScale]
    private(set) lazy var engine = PlacementEngine(source: self)

    /// Labels smaller than this many pixels are unreadable and not drawn.
    static let minimumTextPixels = 4.0

    init(
        map: LoadedMap, view: View, text: TextEngine, measure: LabelTextMeasure? = nil,
        obstacles: (any LabelObstacles)? = nil
    ) {
        self.map = map
        self.view = view
        self.text = text
        self.measure = measure ?? LabelTextMeasure(engine: text)
        self.obstacles = obstacles
        layerReach = map.document.layers.enumerated().map { index, layer in
            guard let label = layer.label, layer.isVisible(atScale: view.scale) else { return nil }
            let scale = SymbolScale(layer: layer, map: map.document, view: view)
            let size = scale.pixels(label.size)
            guard size >= LabelSpace.minimumTextPixels else { return nil }
            // A generous bound: 1.5 em per character covers the widest glyphs.
            let longest = Double(max(1, map.longestLabel[index]))
            let halo = scale.pixels(label.halo?.width ?? 0)
            return longest * size * 1.5 + 2 * size + 2 * halo
                + scale.pixels(max(abs(label.offsetX), abs(label.offsetY))) + 2
        }
        scales = map.document.layers.map { SymbolScale(layer: $0, map: map.document, view: view) }
    }

    /// Whether this space serves `other` (same resolution, density and plane).
    func serves(_ other: View) -> Bool {
        other.resolution == view.resolution && other.dpi == view.dpi
            && other.plane?.identifier == view.plane?.identifier
    }

    /// The placed labels whose boxes touch `rect` (global pixels), in placement order.
    func placedLabels(in rect: Rect) -> [LabelCandidate] {
        engine.placed(touching: rect).compactMap { placed in
            guard case .label(let layer, let feature) = placed.owner else { return nil }
            return candidate(LabelCandidate.ID(layer: layer, feature: feature))
        }
    }

    /// The label of a feature at this resolution, or nil when it has none (filtered out,
    /// empty text, no anchor).
    func candidate(_ id: LabelCandidate.ID) -> LabelCandidate? { makeCandidate(id) }

    private func makeCandidate(_ id: LabelCandidate.ID) -> LabelCandidate? {
        let layer = map.document.layers[id.layer]
        guard let label = layer.label, let anchor = map.labelAnchors[id.layer]?[id.feature] else { return nil }
        let feature = map.stores[id.layer].features[id.feature]
        if let filter = layer.filter, !filter.matches(feature.properties) { return nil }
        let string = label.text.resolve(feature.properties)
        guard !string.isEmpty else { return nil }
        let scale = scales[id.layer]
        let font = FontSpec(
            family: label.font, bold: label.bold, italic: label.italic, sizePixels: scale.pixels(label.size))
        let extents = measure.size(string, font: font)
        let dx = scale.pixels(label.offsetX)
        let dy = scale.pixels(label.offsetY)
        let global = view.globalPixel(anchor)
        let ax = global.x + dx
        let ay = global.y + dy
        // The text sits on the side of the anchor the offset points to (centred when 0).
        let left = dx > 0 ? ax : (dx < 0 ? ax - extents.width : ax - extents.width / 2)
        let top = dy > 0 ? ay : (dy < 0 ? ay - extents.height : ay - extents.height / 2)
        let halo = label.halo.map { (color: $0.color, width: scale.pixels($0.width)) }
        let grow = halo?.width ?? 0
        return LabelCandidate(
            id: id, priority: label.priority, text: string, font: font, color: label.color, halo: halo,
            anchor: global, corner: PlanePoint(x: left, y: top),
            box: Rect(
                minX: left - grow, minY: top - grow, maxX: left + extents.width + grow,
                maxY: top + extents.height + grow))
    }
}

extension LabelSpace: PlacementSource {
    var reach: Double { layerReach.reduce(0) { max($0, $1 ?? 0) } }

    /// The labels anchored in `rect`, without those an obstacle covers.
    func candidates(anchoredIn rect: Rect) -> [PlacementCandidate] {
        var found: [PlacementCandidate] = []
        let metres = view.mercatorBounds(ofGlobalPixels: rect)
        for (layerIndex, layerReach) in layerReach.enumerated() {
            guard layerReach != nil, let anchors = map.labelAnchors[layerIndex] else { continue }
            for feature in map.stores[layerIndex].query(metres) {
                guard let anchor = anchors[feature], metres.contains(anchor), rect.contains(view.globalPixel(anchor)),
                    let label = candidate(LabelCandidate.ID(layer: layerIndex, feature: feature))
                else { continue }
                found.append(label.placement)
            }
        }
        guard let obstacles, !found.isEmpty else { return found }
        let boxes = obstacles.boxes(touching: rect.expanded(by: reach))
        guard !boxes.isEmpty else { return found }
        let buckets = BoxBuckets(
            area: rect.expanded(by: reach), cellSize: 32, items: Array(boxes.indices),
            boxes: { [boxes[$0]] })
        return found.filter { candidate in
            candidate.allowOverlap
                || candidate.boxes.allSatisfy { box in
                    buckets.forEach(touching: box) { !boxes[$0].overlaps(box) }
                }
        }
    }
}
