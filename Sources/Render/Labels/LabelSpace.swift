import Geodesy
import MapModel

/// Label placement for a whole map at one resolution.
///
/// The rule is the classic greedy one: labels are taken highest priority first and a label
/// is placed unless it would overlap a label already placed. Done over the whole map, that
/// rule gives each label one answer, whatever view or tile asks. A view therefore never runs
/// the greedy pass itself: for each label touching it, it asks "is any higher-ranked label
/// that overlaps me placed?", which recursively needs only the labels nearby. So tiles agree
/// with each other across their edges, a label is drawn whole in every tile it touches and
/// never twice, and the answer does not depend on the metatile size or the worker.
final class LabelSpace {
    let map: LoadedMap
    /// A view at this space's resolution, density and plane, for converting positions.
    let view: View
    private let text: TextEngine
    private let readers: LayerReaders
    /// Each labelled layer's features by block of global pixels: the label anchors that fall in
    /// the block. Read once per block, so the many small lookups of placement do not each go
    /// to the source (a database, for an indexed source).
    private var blocks: [BlockKey: [LabelSource]] = [:]
    /// For each layer: how far (pixels) a label's box can reach from its anchor; nil for a
    /// layer without labels or not drawn at this scale.
    private var reach: [Double?] = []
    private var candidates: [LabelCandidate.ID: LabelCandidate?] = [:]
    private var placed: [LabelCandidate.ID: Bool] = [:]
    private var neighbours: [LabelCandidate.ID: [LabelCandidate.ID]] = [:]

    /// Labels smaller than this many pixels are unreadable and not drawn.
    static let minimumTextPixels = 4.0

    /// The side of a block, in pixels.
    static let blockSize = 1024.0

    private struct BlockKey: Hashable {
        let layer: Int
        let column: Int
        let row: Int
    }

    /// What a label needs of a feature: its attributes and its anchor in global pixels.
    private struct LabelSource {
        let feature: Int
        let properties: Properties
        let x: Double
        let y: Double
    }

    init(map: LoadedMap, view: View, text: TextEngine, readers: LayerReaders) {
        self.map = map
        self.view = view
        self.text = text
        self.readers = readers
        reach = map.document.layers.enumerated().map { index, layer in
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
        self.scales = map.document.layers.map { SymbolScale(layer: $0, map: map.document, view: view) }
    }

    private let scales: [SymbolScale]

    /// Whether this space serves `other` (same resolution, density and plane).
    func serves(_ other: View) -> Bool {
        other.resolution == view.resolution && other.dpi == view.dpi
            && other.plane?.identifier == view.plane?.identifier
    }

    /// The placed labels whose boxes touch `rect` (global pixels), in placement order.
    func placedLabels(in rect: Rect) throws -> [LabelCandidate] {
        let found = try candidateIDs(touching: rect).compactMap { candidate($0) }
        return try found.filter { try isPlaced($0.id) }.sorted { $0.outranks($1) }
    }

    /// Labels whose boxes touch `rect`.
    private func candidateIDs(touching rect: Rect) throws -> [LabelCandidate.ID] {
        var ids: [LabelCandidate.ID] = []
        for (layerIndex, layerReach) in reach.enumerated() {
            guard let layerReach else { continue }
            // A label's box lies within `layerReach` of its anchor.
            let search = rect.expanded(by: layerReach)
            let size = LabelSpace.blockSize
            for row in Int((search.minY / size).rounded(.down))...Int((search.maxY / size).rounded(.down)) {
                for column in Int((search.minX / size).rounded(.down))...Int((search.maxX / size).rounded(.down)) {
                    for item in try block(BlockKey(layer: layerIndex, column: column, row: row))
                    where search.contains(x: item.x, y: item.y) {
                        let id = LabelCandidate.ID(layer: layerIndex, feature: item.feature)
                        if let c = candidate(id, item), c.box.intersects(rect) { ids.append(id) }
                    }
                }
            }
        }
        return ids
    }

    /// The labelled features of a layer whose anchors fall in a block (each in exactly one).
    private func block(_ key: BlockKey) throws -> [LabelSource] {
        if let known = blocks[key] { return known }
        let size = LabelSpace.blockSize
        let pixels = Rect(
            minX: Double(key.column) * size, minY: Double(key.row) * size, maxX: Double(key.column + 1) * size,
            maxY: Double(key.row + 1) * size)
        let layer = map.document.layers[key.layer]
        var items: [LabelSource] = []
        for feature in try readers.features(layer: key.layer, in: view.mercatorBounds(ofGlobalPixels: pixels)) {
            if let filter = layer.filter, !filter.matches(feature.properties) { continue }
            guard let anchor = readers.anchor(layer: key.layer, feature) else { continue }
            let g = view.globalPixel(anchor)
            guard g.x >= pixels.minX, g.x < pixels.maxX, g.y >= pixels.minY, g.y < pixels.maxY else { continue }
            items.append(LabelSource(feature: feature.index, properties: feature.properties, x: g.x, y: g.y))
        }
        blocks[key] = items
        return items
    }

    /// The label of a feature at this resolution, or nil when it has none (empty text). Built
    /// once, when its block is first read, and kept.
    private func candidate(_ id: LabelCandidate.ID, _ item: LabelSource? = nil) -> LabelCandidate? {
        if let known = candidates[id] { return known }
        guard let item else { return nil }
        let made = makeCandidate(id, item)
        candidates[id] = made
        return made
    }

    private func makeCandidate(_ id: LabelCandidate.ID, _ item: LabelSource) -> LabelCandidate? {
        let layer = map.document.layers[id.layer]
        guard let label = layer.label else { return nil }
        let string = label.text.resolve(item.properties)
        guard !string.isEmpty else { return nil }
        let scale = scales[id.layer]
        let font = FontSpec(
            family: label.font, bold: label.bold, italic: label.italic, sizePixels: scale.pixels(label.size))
        let extents = text.layout(string, font: font).extents
        let dx = scale.pixels(label.offsetX)
        let dy = scale.pixels(label.offsetY)
        let ax = item.x + dx
        let ay = item.y + dy
        // The text sits on the side of the anchor the offset points to (centred when 0).
        let left = dx > 0 ? ax : (dx < 0 ? ax - extents.width : ax - extents.width / 2)
        let top = dy > 0 ? ay : (dy < 0 ? ay - extents.height : ay - extents.height / 2)
        let halo = label.halo.map { (color: $0.color, width: scale.pixels($0.width)) }
        let grow = halo?.width ?? 0
        return LabelCandidate(
            id: id, priority: label.priority, text: string, font: font, color: label.color, halo: halo,
            corner: PlanePoint(x: left, y: top),
            box: Rect(
                minX: left - grow, minY: top - grow, maxX: left + extents.width + grow,
                maxY: top + extents.height + grow))
    }

    /// Higher-ranked labels whose boxes overlap this one's.
    private func rivals(_ id: LabelCandidate.ID) throws -> [LabelCandidate.ID] {
        if let known = neighbours[id] { return known }
        guard let me = candidate(id) else { return [] }
        let found = try candidateIDs(touching: me.box).filter { other in
            guard other != id, let c = candidate(other) else { return false }
            return c.outranks(me) && c.box.overlaps(me.box)
        }
        neighbours[id] = found
        return found
    }

    /// A label is placed when no higher-ranked label overlapping it is placed. Rank falls
    /// strictly along every step, so the walk ends; it uses its own stack, not recursion,
    /// because chains of overlapping labels can be long on dense maps.
    private func isPlaced(_ id: LabelCandidate.ID) throws -> Bool {
        if let known = placed[id] { return known }
        var stack = [id]
        while let top = stack.last {
            if placed[top] != nil {
                stack.removeLast()
                continue
            }
            var blocked = false
            var undecided: [LabelCandidate.ID] = []
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
