import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// Moving to a new resolution, a renderer keeps little of the others' label placement: a tile
/// job never returns to them, and what they held only added to the new one's peak.
@Suite struct ResolutionChangeTests {
    @Test func olderResolutionsKeepAnEighthOfTheBudget() throws {
        let map = try LoadedMap(document: try MapDocument.load(path: Repository.fixture("maps/world-mapnik.json")))
        let renderer = try MapRenderer(map: map)
        renderer.labelPlacementBudget = 256 << 10
        var kept: [Int] = []
        for z in 1...4 {
            let side = 1 << min(z, 2)
            let view = try View.tiles(z: z, x: 0, y: 0, columns: side, rows: side, tileSize: 256, pixelRatio: 1)
            _ = renderer.labelSpace(for: view)
            #expect(renderer.labelCacheBytes <= renderer.labelPlacementBudget / 8, "zoom \(z)")
            _ = try renderer.placedLabels(view: view)
            kept.append(renderer.labelCacheBytes)
        }
        // Each zoom placed enough that keeping it whole would have broken the bound.
        #expect(kept.allSatisfy { $0 > renderer.labelPlacementBudget / 8 }, "\(kept)")
    }
}
