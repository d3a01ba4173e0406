import Geodesy
import Grids
import MapModel

/// The grid labels of tiles at one resolution, found region by region and kept: what a block
/// of tiles draws, and what its map labels keep clear of.
///
/// In tiles, grid labels hang on the grid alone and a grid label is kept unless a
/// higher-ranked one overlaps it (`GridLabelPlacer.placeLocally`), so the labels anchored in
/// a region follow from the grid around it. Each region is worked out once, in a view of its
/// own, and every metatile and every map label asks the same regions: the labels drawn and
/// the labels avoided are the same objects.
final class GridLabelRegions: LabelObstacles {
    let settings: GridSettings
    let resolution: Double
    let dpi: Double
    private let text: TextEngine
    private let cache: GridCache?
    private var regions: [RegionKey: Region] = [:]
    /// How far a grid label's box reaches from its anchor at this resolution.
    let reach: Double
    /// Where tiles are drawn at this resolution (`View.renderedArea`), grown by the two
    /// reaches a block of tiles looks for labels beyond its edges and by `askedMargin`, in
    /// whole pixels: the regions in it are worked out a block at a time (`blockRegions`).
    /// nil: the world, or an area of more regions than are kept.
    private let asked: Rect?
    /// Map labels placed against the grid's ask for the grid labels near their boxes, which
    /// reach past the rendered area (by up to some 800 pixels over New York at zoom 10-14), and a
    /// search past `asked` works a whole region out. Over the New York MGRS pyramid a margin
    /// of 512 pixels cost the fewest instructions: 1,024 made larger blocks, 256 made 34
    /// whole regions (512: 11).
    static let askedMargin = Double(regionSize / 2)

    /// The side of a region, in pixels.
    static let regionSize = 1024
    /// The most regions kept; past it the cache starts again (results do not change).
    static let maxRegions = 1024
    /// Regions a side worked out at once inside `asked`.
    static let blockRegions = 8
    /// Views the labels were generated in (tests: blocks make fewer).
    private(set) var generations = 0

    private struct RegionKey: Hashable {
        let x: Int
        let y: Int
    }

    /// A region's kept labels anchored in `area`: the whole region, or its part in `asked`.
    private struct Region {
        let area: Rect
        let labels: [GridLabelCandidate]
    }

    /// For tiles like `view` (Web Mercator, its resolution and density).
    init(settings: GridSettings, view: View, text: TextEngine, cache: GridCache?) {
        self.settings = settings
        resolution = view.resolution
        dpi = view.dpi
        self.text = text
        self.cache = cache
        let overlay = GridOverlay(settings: settings, view: view, text: text)
        let reach = overlay.labelReach(overlay.levels())
        self.reach = reach
        asked = view.renderedArea.flatMap { rendered in
            let grown = rendered.expanded(by: 2 * reach + GridLabelRegions.askedMargin)
            let area = Rect(
                minX: grown.minX.rounded(.down), minY: grown.minY.rounded(.down), maxX: grown.maxX.rounded(.up),
                maxY: grown.maxY.rounded(.up))
            let size = Double(GridLabelRegions.regionSize)
            let regions = (area.width / size + 2) * (area.height / size + 2)
            return area.isEmpty || regions > Double(GridLabelRegions.maxRegions / 2) ? nil : area
        }
    }

    func serves(_ view: View) -> Bool {
        view.isTileBlock && view.plane == nil && view.resolution == resolution && view.dpi == dpi
    }

    /// The grid labels whose boxes touch `rect`, in drawing order.
    ///
    /// Each region's labels are in drawing order already, so a search within one region (a
    /// later grid's label box) keeps them as they are; across regions (a metatile and its
    /// reach, mostly) the indices are sorted, not the labels, which are large to move
    /// (`outranks` is a total order, so the order is the one sorting the labels gave).
    ///
    /// The labels are copied once, into the answer: the regions' lists are held (retained)
    /// and the touching labels named by their places there. Filtered into parts, joined and
    /// then taken in order, each was copied three times.
    func labels(touching rect: Rect) -> [GridLabelCandidate] {
        var regions: [[GridLabelCandidate]] = []
        var found: [(region: Int, index: Int)] = []
        forEachRegion(touching: rect) { labels in
            let before = found.count
            for i in labels.indices where labels[i].box.intersects(rect) { found.append((regions.count, i)) }
            if found.count > before { regions.append(labels) }
        }
        if regions.count > 1 {
            found.sort { regions[$0.region][$0.index].outranks(regions[$1.region][$1.index]) }
        }
        return found.map { regions[$0.region][$0.index] }
    }

    /// The boxes of the labels touching `rect`, in no order: map labels test their candidates
    /// against all of them.
    func boxes(touching rect: Rect) -> [Rect] {
        var boxes: [Rect] = []
        forEachRegion(touching: rect) { labels in
            for label in labels where label.box.intersects(rect) { boxes.append(label.box) }
        }
        return boxes
    }

    /// The labels of each region that may hold a label whose box touches `rect`: those
    /// anchored within a reach of it, and more.
    private func forEachRegion(touching rect: Rect, _ body: ([GridLabelCandidate]) -> Void) {
        guard settings.labelsVisible, !rect.isEmpty else { return }
        let size = Double(GridLabelRegions.regionSize)
        let search = rect.expanded(by: reach)
        // Anchors outside the world have no labels: regions stop at its edges.
        let world = 2 * WebMercator.halfWorld / resolution
        let x0 = Int(max(0, search.minX / size).rounded(.down))
        let x1 = Int(min(world, search.maxX).rounded(.down) / size)
        let y0 = Int(max(0, search.minY / size).rounded(.down))
        let y1 = Int(min(world, search.maxY).rounded(.down) / size)
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                body(region(RegionKey(x: x, y: y), anchorsIn: search))
            }
        }
    }

    /// The kept labels anchored in one region, at least those anchored in `search`.
    ///
    /// Inside `asked`, regions are worked out `blockRegions` a side at once, in one view of
    /// their part in `asked`: each region's own view generated the grid (lines, stops, label
    /// candidates) two label reaches around it, most of it again for its neighbours, and the
    /// regions around the rendered area whole for the strip along its edge that its tiles ask
    /// for. A label's keeping depends only on the grid within two reaches of its anchor
    /// (`GridLabelPlacer.placeLocally`) and every view has whole-pixel edges, so a region's
    /// labels are the same from any view that holds them. A search reaching past the part
    /// worked out (a map label's box beyond the rendered area) works the whole region out.
    private func region(_ key: RegionKey, anchorsIn search: Rect) -> [GridLabelCandidate] {
        let whole = Self.area(of: key)
        let wanted = whole.intersection(search)
        if let known = regions[key], Self.covers(known.area, wanted, of: whole) { return known.labels }
        if regions.count >= GridLabelRegions.maxRegions { regions.removeAll(keepingCapacity: true) }
        if regions[key] == nil, let asked, Self.covers(whole.intersection(asked), wanted, of: whole) {
            workOutBlock(of: key, in: asked)
            if let known = regions[key] { return known.labels }
        }
        let labels = self.labels(anchoredIn: whole)
        regions[key] = Region(area: whole, labels: labels)
        return labels
    }

    /// Works out the regions of the block holding `key`, in their part in `asked`.
    private func workOutBlock(of key: RegionKey, in asked: Rect) {
        let n = GridLabelRegions.blockRegions
        // Keys are never negative (`labels(touching:)` stops regions at the world's edges).
        let first = RegionKey(x: key.x / n * n, y: key.y / n * n)
        let block = Self.area(of: first).union(Self.area(of: RegionKey(x: first.x + n - 1, y: first.y + n - 1)))
        let area = block.intersection(asked)
        guard area.width >= 1, area.height >= 1 else { return }
        // The block's regions by their place in it, row by row: a label anchored in `area` is
        // in one of them. The view's labels go straight to their regions, not through the
        // list of those anchored in the area first: each copy of a label retains and releases
        // its strings.
        var byRegion = [[GridLabelCandidate]](repeating: [], count: n * n)
        let size = Double(GridLabelRegions.regionSize)
        for label in placedLabels(in: area) where Self.anchors(label, in: area) {
            let x = Int((label.anchor.x / size).rounded(.down)) - first.x
            let y = Int((label.anchor.y / size).rounded(.down)) - first.y
            guard x >= 0, x < n, y >= 0, y < n else { continue }
            byRegion[y * n + x].append(label)
        }
        for y in 0..<n {
            for x in 0..<n {
                let k = RegionKey(x: first.x + x, y: first.y + y)
                let part = Self.area(of: k).intersection(area)
                guard part.width > 0, part.height > 0, regions[k] == nil else { continue }
                regions[k] = Region(area: part, labels: byRegion[y * n + x])
            }
        }
    }

    private static func area(of key: RegionKey) -> Rect {
        let size = Double(regionSize)
        return Rect(
            minX: Double(key.x) * size, minY: Double(key.y) * size, maxX: Double(key.x + 1) * size,
            maxY: Double(key.y + 1) * size)
    }

    /// Whether labels anchored in `area`, a part of region `whole`, include every one anchored
    /// in `wanted`: anchors are kept from an area's min edges up to but not on its max edges
    /// (those of the next region), so a part's max edge inside the region must lie beyond.
    private static func covers(_ area: Rect, _ wanted: Rect, of whole: Rect) -> Bool {
        wanted.isEmpty
            || (area.minX <= wanted.minX && area.minY <= wanted.minY
                && (wanted.maxX < area.maxX || area.maxX >= whole.maxX)
                && (wanted.maxY < area.maxY || area.maxY >= whole.maxY))
    }

    /// The kept labels anchored in `area` (whole pixels), in drawing order, from a view of
    /// that area alone.
    private func labels(anchoredIn area: Rect) -> [GridLabelCandidate] {
        let labels = placedLabels(in: area)
        // Reserved, not grown by doubling: a block's labels are thousands of large values.
        var inside: [GridLabelCandidate] = []
        inside.reserveCapacity(labels.count)
        for label in labels where Self.anchors(label, in: area) { inside.append(label) }
        return inside
    }

    /// The labels a view of `area` (whole pixels) keeps, in drawing order, anchored in it or
    /// around it.
    private func placedLabels(in area: Rect) -> [GridLabelCandidate] {
        guard
            var view = try? View(
                resolution: resolution, originX: area.minX, originY: area.minY, width: Int(area.width),
                height: Int(area.height), dpi: dpi)
        else { return [] }
        view.isTileBlock = true
        generations += 1
        return GridOverlay(settings: settings, view: view, text: text).labels(cache: cache)
    }

    /// Whether `label` is anchored in `area`, from its min edges up to but not on its max ones.
    private static func anchors(_ label: GridLabelCandidate, in area: Rect) -> Bool {
        label.anchor.x >= area.minX && label.anchor.x < area.maxX && label.anchor.y >= area.minY
            && label.anchor.y < area.maxY
    }
}
