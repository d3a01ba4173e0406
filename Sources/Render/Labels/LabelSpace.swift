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
    private let readers: LayerReaders
    private let measure: LabelTextMeasure
    /// Boxes map labels keep clear of, if any.
    let obstacles: (any LabelObstacles)?
    /// Each labelled layer's features by block of global pixels: the label anchors that fall in
    /// the block. Read once per block, so the many small lookups of placement do not each go
    /// to the source (a database, for an indexed source). Bounded by `blockLimit` features.
    private var blocks: [BlockKey: Block] = [:]
    private var blockFeatures = 0
    /// For each layer: how far (pixels) a label's box can reach from its anchor; nil for a
    /// layer without labels or not drawn at this scale.
    private let layerReach: [Double?]
    private let scales: [SymbolScale]
    private(set) lazy var engine = PlacementEngine(source: self)

    /// Labels smaller than this many pixels are unreadable and not drawn.
    static let minimumTextPixels = 4.0

    /// The side of a block, in pixels.
    static let blockSize = 1024.0
    /// Past this many features kept in blocks, the blocks are read afresh: memory stays bounded.
    static let blockLimit = 1_000_000

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

    /// The labelled features anchored in one block, and where each is in the list.
    private struct Block {
        let items: [LabelSource]
        let index: [Int: Int]
    }

    init(
        map: LoadedMap, view: View, text: TextEngine, readers: LayerReaders, measure: LabelTextMeasure? = nil,
        obstacles: (any LabelObstacles)? = nil
    ) {
        self.map = map
        self.view = view
        self.text = text
        self.readers = readers
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
    func placedLabels(in rect: Rect) throws -> [LabelCandidate] {
        try engine.placed(touching: rect).compactMap { placed in
            guard case .label(let layer, let feature) = placed.owner else { return nil }
            let block = try self.block(key(layer, placed.anchor.x, placed.anchor.y))
            guard let at = block.index[feature] else { return nil }
            return candidate(LabelCandidate.ID(layer: layer, feature: feature), block.items[at])
        }
    }

    private func key(_ layer: Int, _ x: Double, _ y: Double) -> BlockKey {
        BlockKey(
            layer: layer, column: Int((x / LabelSpace.blockSize).rounded(.down)),
            row: Int((y / LabelSpace.blockSize).rounded(.down)))
    }

    /// The labelled features of a layer whose anchors fall in a block (each in exactly one).
    private func block(_ key: BlockKey) throws -> Block {
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
        if blockFeatures + items.count > LabelSpace.blockLimit {
            blocks.removeAll()
            blockFeatures = 0
        }
        var index: [Int: Int] = [:]
        for (at, item) in items.enumerated() { index[item.feature] = at }
        let block = Block(items: items, index: index)
        blocks[key] = block
        blockFeatures += items.count
        return block
    }

    /// The label of a feature at this resolution, or nil when it has none (empty text).
    private func candidate(_ id: LabelCandidate.ID, _ item: LabelSource) -> LabelCandidate? {
        let layer = map.document.layers[id.layer]
        guard let label = layer.label else { return nil }
        let string = label.text.resolve(item.properties)
        guard !string.isEmpty else { return nil }
        let scale = scales[id.layer]
        let font = FontSpec(
            family: label.font, bold: label.bold, italic: label.italic, sizePixels: scale.pixels(label.size))
        let extents = measure.size(string, font: font)
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
            anchor: PlanePoint(x: item.x, y: item.y), corner: PlanePoint(x: left, y: top),
            box: Rect(
                minX: left - grow, minY: top - grow, maxX: left + extents.width + grow,
                maxY: top + extents.height + grow))
    }
}

extension LabelSpace: PlacementSource {
    var reach: Double { layerReach.reduce(0) { max($0, $1 ?? 0) } }

    /// The labels anchored in `rect`, without those an obstacle covers.
    func candidates(anchoredIn rect: Rect) throws -> [PlacementCandidate] {
        var found: [PlacementCandidate] = []
        for (layerIndex, layerReach) in layerReach.enumerated() where layerReach != nil {
            let first = key(layerIndex, rect.minX, rect.minY)
            let last = key(layerIndex, rect.maxX, rect.maxY)
            for row in first.row...last.row {
                for column in first.column...last.column {
                    for item in try block(BlockKey(layer: layerIndex, column: column, row: row)).items
                    where rect.contains(x: item.x, y: item.y) {
                        guard let label = candidate(LabelCandidate.ID(layer: layerIndex, feature: item.feature), item)
                        else { continue }
                        found.append(label.placement)
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
