import Geodesy
import Grids
import MapModel

/// What a grid draws for its lines under its `marks` (`GridMarkStyle`): the whole lines, the
/// crosses where they meet, or ticks at the view's edges, plus sub-ticks between lines.
/// Zone boundaries are always drawn whole: they bound the zones the values belong to.
///
/// In a block of tiles there are no view edges to tick (a tile's edge is not the map's), so a
/// grid of ticks marks its intersections with crosses the length of a tick, and sub-ticks are
/// left out; crosses are found from each line's own vertices, so tiles agree across edges.
extension GridOverlay {
    /// How far a mark reaches from the point it marks, in pixels: lines are generated this
    /// much further out, so every cross that reaches the view is found.
    var markReach: Double {
        let marks = settings.marks
        switch marks.kind {
        case .lines: return 0
        case .crosses: return marks.crossLength / 2 * view.pixelsPerPoint
        case .ticks: return marks.tickLength * view.pixelsPerPoint
        }
    }

    /// How far edge labels move in from the edge to clear inside ticks, in pixels.
    var edgeLabelInset: Double {
        settings.marks.kind == .ticks && !view.isTileBlock ? settings.marks.tickLength * view.pixelsPerPoint : 0
    }

    /// The pieces of line to draw, each with its line's level.
    func markedLines(_ grid: GridGeometry) -> [GridLine] {
        let marks = settings.marks
        let ppp = view.pixelsPerPoint
        let boundaries = grid.lines.filter { $0.axis == .boundary }
        let marked: [GridLine]
        switch marks.kind {
        case .lines:
            marked = grid.lines
        case .crosses:
            marked = boundaries + grid.crosses(halfLength: marks.crossLength / 2 * ppp)
        case .ticks where view.isTileBlock:
            marked = boundaries + grid.crosses(halfLength: marks.tickLength / 2 * ppp)
        case .ticks:
            marked = boundaries + grid.edgeTicks(length: marks.tickLength * ppp, inward: true, of: view.globalBounds)
        }
        return marked + subTicks(grid)
    }

    /// Half-length ticks at the view's edges dividing each interval between neighbouring
    /// lines into `subTicks + 1` equal parts (of value, so on a curved line they are where the
    /// values are). They are where the lines of a grid at that finer interval would meet the
    /// edges, generated as such; an interval that does not divide into whole units of the
    /// grid (seconds of arc, metres) gets none.
    func subTicks(_ grid: GridGeometry) -> [GridLine] {
        let n = settings.marks.subTicks
        guard n > 0, !view.isTileBlock, let spacing = grid.spacing else { return [] }
        var request = request()
        request.labels = false
        request.parallelLevels = []
        request.parallelMinSpacing = nil
        request.levels = grid.levels
        request.interval = GridInterval(
            x: spacing.x.step / Double(n + 1), y: spacing.y.step / Double(n + 1), offsetX: spacing.x.offset,
            offsetY: spacing.y.offset)
        guard
            let fine = try? Grid.generate(
                request, projection: ViewGridProjection(view: view), area: view.globalBounds)
        else { return [] }
        func onLine(_ line: GridLine) -> Bool {
            let s = line.axis.labelsOnHorizontalEdges ? spacing.x : spacing.y
            let k = (line.value - s.offset) / s.step
            return abs(k - k.rounded()) < 1e-6
        }
        let length = settings.marks.tickLength / 2 * view.pixelsPerPoint
        // On the edges their lines are labelled on: meridians and eastings top and bottom.
        return fine.edgeTicks(length: length, inward: true, of: view.globalBounds, labelledEdgesOnly: true).filter {
            !onLine($0)
        }.map {
            // Drawn in the style of the finest level of the grid's own lines.
            var tick = $0
            tick.level = grid.levels.last ?? tick.level
            return tick
        }
    }
}
