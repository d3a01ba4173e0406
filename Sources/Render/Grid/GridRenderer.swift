import Geodesy
import Grids
import MapModel

/// Draws the grid of each render; one per `MapRenderer` (so per worker thread), keeping the
/// label sprites between renders.
final class GridRenderer {
    let text: TextEngine
    let labelPainter: GridLabelPainter
    let raster = GridLineRaster()
    /// Line ends shared by the metatiles of a tile job. Single images do not use it: a
    /// render of one image has nothing to share.
    let cache = GridCache()

    init(text: TextEngine) {
        self.text = text
        labelPainter = GridLabelPainter(text: text)
    }

    /// The grid labels of tiles at recent resolutions.
    private var labelRegions: [GridLabelRegions] = []

    /// The grid of `view`, ready to draw region by region; nil when it draws nothing. Tiles
    /// take their labels from `labelRegions(_:view:)`, so theirs are left out here.
    func prepare(_ settings: GridSettings, view: View) -> GridDrawing? {
        guard settings.visible else { return nil }
        return GridOverlay(settings: settings, view: view, text: text).prepare(
            raster: raster, cache: view.isTileBlock ? cache : nil, labels: !view.isTileBlock)
    }

    /// The grid labels of tiles at the resolution of `view` (a block of tiles), kept from one
    /// metatile to the next.
    func labelRegions(_ settings: GridSettings, view: View) -> GridLabelRegions {
        if let known = labelRegions.first(where: { $0.serves(view) && $0.settings == settings }) { return known }
        let regions = GridLabelRegions(settings: settings, view: view, text: text, cache: cache)
        labelRegions.append(regions)
        // Two resolutions of up to two grids; more only costs the regions' work again.
        if labelRegions.count > 4 { labelRegions.removeFirst() }
        return regions
    }

    /// The grid labels of tiles at recent resolutions, grid over grid.
    private var labelStacks: [GridLabelStack] = []

    /// The labels of `grids` (those with labels, in document order) in tiles at the resolution
    /// of `view`; the same object while its regions are kept, so map label spaces keyed on it
    /// are kept too.
    func labelStack(_ grids: [GridSettings], view: View) -> GridLabelStack {
        let regions = grids.map { labelRegions($0, view: view) }
        if let known = labelStacks.first(where: { $0.regions.elementsEqual(regions, by: ===) }) { return known }
        let stack = GridLabelStack(regions)
        labelStacks.append(stack)
        if labelStacks.count > 2 { labelStacks.removeFirst() }
        return stack
    }
}

/// A view's grid, generated once and drawn in two steps: the lines of each region (the whole
/// view, or each tile of a block under its clip, after that tile's features and labels), then
/// the labels over everything.
struct GridDrawing {
    let view: View
    let lines: GridLinePainter
    let raster: GridLineRaster
    /// Placed labels, in drawing order (single images; tiles take theirs from `GridLabelRegions`).
    let labels: [GridLabelCandidate]

    /// The boxes (global pixels, grown by halo and gap) of the grid labels drawn that reach
    /// `region`: what map labels placed after the grid must keep clear of.
    func labelBoxes(in region: Rect) -> [Rect] {
        labels.map(\.box).filter { $0.overlaps(region) }
    }

    func drawLines(in region: Rect, into context: CairoContext) {
        context.save()
        lines.draw(in: region, view: view, into: context, raster: raster)
        context.restore()
    }

    /// Labels sit on whole pixels and are copied from sprites, so drawing them once over a
    /// block gives each tile the pixels it gets alone.
    ///
    /// The pixels under the next label are asked for while one is drawn: labels go over a
    /// whole block after its tiles, when its pixels have long left the cache, and each
    /// sprite's rows (8 KB apart in a metatile) waited on memory in turn.
    func drawLabels(_ labels: [GridLabelCandidate], into context: CairoContext, painter: GridLabelPainter) {
        let target = GridLineRaster.Target(context, view: view)
        let direct = labels.isEmpty ? nil : GridLabelPainter.DirectTarget(context)
        for (index, label) in labels.enumerated() {
            if let target, index &+ 1 < labels.count { target.prefetchForWrite(labels[index &+ 1].box) }
            let corner = view.transform.image(global: label.corner)
            painter.draw(label, in: context, x: corner.x, y: corner.y, direct: direct)
        }
    }
}
