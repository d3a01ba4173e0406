import DataSources
import Geodesy
import Grids
import MapModel
import Render

/// The grids a sheet prints and the bands of the collar their values take.
///
/// The first grid is the sheet's main grid: its values are printed next to the neatline,
/// beyond the collar's ticks, exactly as on a sheet with one grid. Each later grid whose
/// values go outside gets a band of its own further out, as deep as its widest value, so no
/// grid's values ever meet another's: the collar grows by that band on the sides (and at the
/// top and bottom) where the grid prints outside. A later grid printing inside the neatline
/// (`"position": "inside"`) takes no band; its values keep clear of every earlier grid's
/// values there. Each grid's values are in its own levels' text colour (NGA sheets print the
/// secondary grid's values in its colour in the margin; USGS quadrangles put UTM and
/// geographic values in different colours along the neatline).
enum SheetGrids {
    /// A grid to print: its type and the document's settings it is printed with.
    struct Choice {
        var type: GridType
        var settings: GridSettings?
        /// How its values are written: the settings' `annotation`, or the request's for the main grid.
        var annotation: GridAnnotation?
    }

    /// Room between two bands of values, mm.
    static let bandGap = 1.5

    /// The grids a request prints, main grid first: the one `--grid` names (with the
    /// document's first grid's settings), else every visible grid of the document in order,
    /// else (a document without grids) MGRS.
    /// The request's `annotation` (`--annotation`) replaces the main grid's.
    static func choices(_ request: SheetRequest, document: MapDocument) -> [Choice] {
        var choices: [Choice]
        switch request.grid {
        case .type(let type): choices = [Choice(type: type, settings: document.grid)]
        case .none: choices = []
        case .document:
            choices =
                document.grids.isEmpty
                ? [Choice(type: .mgrs, settings: nil)]
                : document.visibleGrids.map { Choice(type: $0.type, settings: $0) }
        }
        for i in choices.indices { choices[i].annotation = choices[i].settings?.annotation }
        if let annotation = request.annotation, !choices.isEmpty { choices[0].annotation = annotation }
        return choices
    }

    /// The size (mm) of the widest and tallest value a grid can print (nil: no grid, which
    /// still keeps a collar for a digit).
    static func valueSize(_ choice: Choice?, measure: (PageText) -> PageTextSize) -> (width: Double, height: Double) {
        let styles = choice.map { SheetGridStyle.resolver(type: $0.type, settings: $0.settings) }
        // The boldest face any level prints in decides the widest value.
        let style = (0..<12).map { styles?($0) ?? .plain }.first { $0.bold } ?? styles?(0) ?? .plain
        var width = 0.0
        var height = 0.0
        let samples = FrameGrid.sampleLabels(for: choice?.type, style: style, annotation: choice?.annotation)
        for runs in samples {
            let size = measure(PageText(runs, at: PlanePoint(x: 0, y: 0), anchor: PageTextAnchor(.left, .top)))
            width = max(width, size.width)
            height = max(height, size.height)
        }
        return (width, height)
    }

    /// The collar's bands: how far out (mm, beyond the main grid's place) each grid's values
    /// start on the left and right sides and on the top and bottom, and the depth all of them
    /// need together there.
    static func bands(_ choices: [Choice], measure: (PageText) -> PageTextSize) -> (
        offsets: [FrameGrid.BandOffset], width: Double, height: Double
    ) {
        let main = valueSize(choices.first, measure: measure)
        var width = main.width
        var height = main.height
        var offsets = [FrameGrid.BandOffset()]
        for choice in choices.dropFirst() {
            let size = valueSize(choice, measure: measure)
            let annotation = choice.annotation
            var offset = FrameGrid.BandOffset()
            if printsOutside(annotation, on: [.left, .right]) {
                offset.leftRight = width + bandGap
                width += bandGap + size.width
            }
            if printsOutside(annotation, on: [.top, .bottom]) {
                offset.topBottom = height + bandGap
                height += bandGap + size.height
            }
            offsets.append(offset)
        }
        return (offsets, width, height)
    }

    /// Whether any of `edges` prints values in the collar (every side does without an annotation).
    static func printsOutside(_ annotation: GridAnnotation?, on edges: [GridAnnotation.Edge]) -> Bool {
        guard let annotation else { return true }
        return edges.contains { annotation[$0].axis != .none && annotation[$0].position == .outside }
    }

    /// The grids of `choices` on a sheet, each with its band; a grid none of whose levels
    /// shows is left out.
    static func make(
        _ choices: [Choice], offsets: [FrameGrid.BandOffset], plane: any SheetPlane, transform: FrameTransform,
        crs: ProjectedPlane?
    ) throws(SheetError) -> [FrameGrid] {
        var grids: [FrameGrid] = []
        for (choice, offset) in zip(choices, offsets) {
            guard
                var grid = try FrameGrid.make(
                    type: choice.type, plane: plane, transform: transform, settings: choice.settings, crs: crs)
            else { continue }
            grid.band = offset
            grid.annotation = choice.annotation
            grids.append(grid)
        }
        return grids
    }

    /// Every grid's page items: the lines, borders and ticks of all grids first (grid after
    /// grid), then all their values, so no grid's line runs through another grid's value. A
    /// later grid's value is left out where it would touch an earlier grid's.
    static func items(
        _ grids: [FrameGrid], transform: FrameTransform, collar: Rect, measure: (PageText) -> PageTextSize
    ) -> (lines: [PageItem], labels: [PageItem]) {
        var lines: [PageItem] = []
        var labels: [PageItem] = []
        var placed: [Rect] = []
        for grid in grids {
            let drawn = grid.items(transform: transform, collar: collar, measure: measure, avoiding: placed)
            for item in drawn.items {
                if case .text = item { labels.append(item) } else { lines.append(item) }
            }
            placed += drawn.boxes
        }
        return (lines, labels)
    }

    /// The annotation that writes the sheet's corner coordinates and geographic ticks: the
    /// first grid's whose annotation writes latitudes and longitudes (has a format).
    static func angleAnnotation(_ grids: [FrameGrid]) -> GridAnnotation? {
        grids.first { $0.annotation?.format != nil }?.annotation
    }
}
