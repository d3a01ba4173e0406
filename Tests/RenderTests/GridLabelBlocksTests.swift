import Foundation
import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// Tiles over a known area (`View.renderedArea`) take their grid labels from blocks of regions
/// worked out at once in that area; without it, region by region. Both must give every
/// search the same labels, in the same order, and the blocks must be fewer views.
@Suite struct GridLabelBlocksTests {
    /// What a drawn label is: its text and style, where it sits, its box and rank.
    static func key(_ label: GridLabelCandidate) -> String {
        "\(label.text)|\(label.font)|\(label.corner.x),\(label.corner.y)|\(label.box)|\(label.rank)|\(label.anchor)"
    }

    @Test func blocksGiveTheLabelsOfRegions() throws {
        let text = try GridLabelRuleTests.text()
        var random = Xorshift(state: 0x5EED_B10C_1234_5678)
        let places: [(lon: Double, lat: Double)] = [(-73.97, 40.77), (-72.0, 41.0), (6.5, 60.3), (-0.1, 51.5)]
        var blockViews = 0
        var regionViews = 0
        var found = 0
        for round in 0..<12 {
            let place = places[round % places.count]
            let type: GridType = [.mgrs, .utm, .latlong][round % 3]
            let z = 9 + random.below(6)
            let n = Double(1 << z)
            let tx = Int((place.lon + 180) / 360 * n)
            let latitude = place.lat * .pi / 180
            let ty = Int((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n)
            let x0 = tx - random.below(8)
            let y0 = ty - random.below(8)
            let x1 = tx + random.below(24)
            let y1 = ty + random.below(24)
            var view = try View.tiles(z: z, x: tx, y: ty)
            let plain = view
            view.renderedArea = Rect(
                minX: Double(x0 * 256), minY: Double(y0 * 256), maxX: Double((x1 + 1) * 256),
                maxY: Double((y1 + 1) * 256))
            let settings = GridSettings(type: type)
            let blocks = GridLabelRegions(settings: settings, view: view, text: text, cache: GridCache())
            let regions = GridLabelRegions(settings: settings, view: plain, text: text, cache: GridCache())
            let rendered = view.renderedArea!
            for query in 0..<24 {
                let rect: Rect
                if query % 4 != 3 {
                    // A metatile of the area, grown as `GridLabelStack.drawn(near:)` grows it.
                    let side = Double(256 << random.below(4))
                    let x = rendered.minX + Double(random.below(Int(rendered.width / 256))) * 256
                    let y = rendered.minY + Double(random.below(Int(rendered.height / 256))) * 256
                    rect = Rect(x: x, y: y, width: side, height: side).intersection(rendered).expanded(by: blocks.reach)
                } else {
                    // Any rectangle near it (a map label's box), inside or past the blocks.
                    let around = rendered.expanded(by: 3 * Double(GridLabelRegions.regionSize))
                    rect = Rect(
                        x: around.minX + Double(random.below(Int(around.width))),
                        y: around.minY + Double(random.below(Int(around.height))),
                        width: Double(1 + random.below(1500)), height: Double(1 + random.below(1500)))
                }
                let expected = regions.labels(touching: rect).map(Self.key)
                found += expected.count
                #expect(blocks.labels(touching: rect).map(Self.key) == expected, "\(type) zoom \(z) \(rect)")
            }
            blockViews += blocks.generations
            regionViews += regions.generations
        }
        #expect(found > 500)  // the searches did find labels
        #expect(blockViews < regionViews / 2, "\(blockViews) views in blocks, \(regionViews) region by region")
    }
}
