import MapModel

/// Draws the grid of each render; one per `MapRenderer` (so per worker thread), keeping the
/// label sprites between renders.
final class GridRenderer {
    let text: TextEngine
    let labelPainter: GridLabelPainter

    init(text: TextEngine) {
        self.text = text
        labelPainter = GridLabelPainter(text: text)
    }

    func draw(_ settings: GridSettings, view: View, into context: CairoContext) {
        guard settings.visible else { return }
        GridOverlay(settings: settings, view: view, text: text).draw(into: context, labelPainter: labelPainter)
    }
}
