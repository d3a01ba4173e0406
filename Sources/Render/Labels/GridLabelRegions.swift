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
    private var regions: [RegionKey: [GridLabelCandidate]] = [:]
    /// How far a grid label's box reaches from its anchor at this resolution.
    let reach: Double

    /// The side of a region, in pixels.
    static let regionSize = 1024
    /// The most regions kept; past it the cache starts again (results do not change).
    static let maxRegions = 1024

    private struct RegionKey: Hashable {
        let x: Int
        let y: Int
    }

    /// For tiles like `view` (Web Mercator, its resolution and density).
    init(settings: GridSettings, view: View, text: TextEngine, cache: GridCache?) {
        self.settings = settings
        resolution = view.resolution
        dpi = view.dpi
        self.text = text
        self.cache = cache
        let overlay = GridOverlay(settings: settings, view: view, text: text)
        reach = overlay.labelReach(overlay.levels())
    }

    func serves(_ view: View) -> Bool {
        view.isTileBlock && view.plane == nil && view.resolution == resolution && view.dpi == dpi
    }

    /// The grid labels whose boxes touch `rect`, in drawing order.
    func labels(touching rect: Rect) -> [GridLabelCandidate] {
        guard settings.labelsVisible, !rect.isEmpty else { return [] }
        let size = Double(GridLabelRegions.regionSize)
        let search = rect.expanded(by: reach)
        // Anchors outside the world have no labels: regions stop at its edges.
        let world = 2 * WebMercator.halfWorld / resolution
        let x0 = Int(max(0, search.minX / size).rounded(.down))
        let x1 = Int(min(world, search.maxX).rounded(.down) / size)
        let y0 = Int(max(0, search.minY / size).rounded(.down))
        let y1 = Int(min(world, search.maxY).rounded(.down) / size)
        guard x0 <= x1, y0 <= y1 else { return [] }
        var found: [GridLabelCandidate] = []
        for y in y0...y1 {
            for x in x0...x1 {
                found += region(RegionKey(x: x, y: y)).filter { $0.box.intersects(rect) }
            }
        }
        return found.sorted { $0.outranks($1) }
    }

    func boxes(touching rect: Rect) -> [Rect] { labels(touching: rect).map(\.box) }

    /// The kept labels anchored in one region.
    private func region(_ key: RegionKey) -> [GridLabelCandidate] {
        if let known = regions[key] { return known }
        if regions.count >= GridLabelRegions.maxRegions { regions.removeAll(keepingCapacity: true) }
        let size = GridLabelRegions.regionSize
        let area = Rect(
            minX: Double(key.x * size), minY: Double(key.y * size), maxX: Double((key.x + 1) * size),
            maxY: Double((key.y + 1) * size))
        var labels: [GridLabelCandidate] = []
        if var view = try? View(
            resolution: resolution, originX: area.minX, originY: area.minY, width: size, height: size, dpi: dpi)
        {
            view.isTileBlock = true
            labels = GridOverlay(settings: settings, view: view, text: text).labels(cache: cache).filter {
                $0.anchor.x >= area.minX && $0.anchor.x < area.maxX && $0.anchor.y >= area.minY
                    && $0.anchor.y < area.maxY
            }
        }
        regions[key] = labels
        return labels
    }
}
