import Geodesy
import MapModel
import Testing

@testable import Render

/// A worker keeps the shaped texts (Pango layouts) of the view it draws and of the one before
/// it, not of every label it measured: what it keeps follows the views, not the data.
@Suite struct TextLayoutCacheTests {
    @Test(arguments: [500, 2_000])
    func layoutsKeptAreThoseOfTheLastTwoViews(places: Int) throws {
        let map = try TextMeasuresTests.places(places)
        let worker = try MapRenderer(map: map)
        var previous = 0
        for x in stride(from: 0, to: 8, by: 2) {
            let view = try View.tiles(z: 3, x: x, y: 2, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
            _ = try worker.renderImage(view: view, tileSize: 256)
            // What the view draws, as a worker of its own places it: every text a layout at most.
            let texts = try MapRenderer(map: map).placedLabels(view: view).map.filter { !$0.isMarker }.count
            #expect(texts > 0)
            #expect(worker.text.keptLayouts <= texts + previous, "view at x \(x)")
            previous = texts
        }
        // Every text of the data was measured (the views' placement reaches round the world).
        #expect(worker.text.measures.count >= places / 2)
    }
}
