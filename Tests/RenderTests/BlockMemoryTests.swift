import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// What a block of tiles holds besides the layer it draws: pixel parts shared by its tiles
/// stay under a budget and go once their last tile is drawn, and the block's label placement
/// is made after its layers, so a view never holds both at once.
@Suite struct BlockMemoryTests {
    /// `count` lines of 40 vertices, each across the edge between the two columns of a 2x2
    /// block at zoom 1 (at 0 degrees), in both rows; labelled points beside them.
    static func lines(_ count: Int) -> [String] {
        (0..<count).map { (i: Int) -> String in
            let lat: Double = -70 + Double(i % 140)
            let shift: Double = Double(i % 7) * 0.1
            let coordinates = (0..<40).map { (k: Int) -> String in
                let x: Double = -20 + Double(k) + shift
                let y: Double = lat + Double(k % 3) * 0.2
                return "[\(x), \(y)]"
            }
            return
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [\#(coordinates.joined(separator: ","))]}}"#
        }
    }

    static let lineLayer = ##"{"name": "lines", "line": {"color": "#404040", "width": 1.5}}"##

    /// Parts of a growing number of geometries, each across tiles: the bytes kept never pass
    /// the budget, each tile gets the parts it would make itself, and once every tile is
    /// done nothing is kept.
    @Test(arguments: [100, 400, 1600])
    func partsStayUnderTheBudgetAndGoAfterTheirLastTile(count: Int) {
        let budget = 160 << 10
        // Geometry g is drawn by tiles g % 4 up to 3 (its last).
        let paths = PixelPaths(budget: budget) { _ in 3 }
        var made = 0
        for tile in 0..<4 {
            for g in 0..<count where g % 4 <= tile {
                let key = PixelPaths.Key(feature: g, geometry: 0)
                let expected: [[PlanePoint]] = (0..<3).map { (p: Int) -> [PlanePoint] in
                    (0..<20).map { (k: Int) -> PlanePoint in PlanePoint(x: Double(g), y: Double(p * 20 + k)) }
                }
                let parts = paths.parts(key) {
                    made += 1
                    return expected
                }
                #expect(parts == expected)
                #expect(paths.bytes <= budget)
            }
            paths.finish(tile: tile)
        }
        #expect(paths.mostBytes <= budget)
        #expect(paths.bytes == 0 && paths.count == 0)
        // Each geometry is about 1.2 KB: 100 fit, each made once; of more, those past the
        // budget are made again by each tile that draws them.
        let drawn = (0..<count).reduce(0) { $0 + 4 - $1 % 4 }
        if count * 1300 <= budget {
            #expect(made == count)
        } else {
            #expect(paths.mostBytes > budget - 2048)
            #expect(made > count && made <= drawn)
        }
    }

    /// A geometry's parts are kept until its last tile is done, then dropped; one whose last
    /// tile is unknown stays for the block.
    @Test func partsGoAfterTheirLastTile() {
        let paths = PixelPaths(budget: 1 << 20) { feature in feature == 9 ? Int.max : feature }
        for feature in [0, 1, 2, 9] {
            _ = paths.parts(PixelPaths.Key(feature: feature, geometry: 0)) { [[PlanePoint(x: 1, y: 2)]] }
        }
        #expect(paths.count == 4)
        paths.finish(tile: 0)
        paths.finish(tile: 1)
        #expect(paths.count == 2)
        paths.finish(tile: 2)
        paths.finish(tile: 3)
        #expect(paths.count == 1)
        #expect(paths.keptCount == 4)
    }

    /// A block of lines across tile edges, with parts kept within the default budget, within
    /// 4 KB and not at all: the same pixels, and the bytes kept under each budget.
    @Test(arguments: [60, 240])
    func aBudgetChangesNoPixel(count: Int) throws {
        let map = try TestMap.load(features: Self.lines(count), layers: [Self.lineLayer])
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let unbounded = try MapRenderer(map: map)
        let reference = try unbounded.renderImage(view: view, tileSize: 256)
        #expect(unbounded.peakPixelPartsKept == count)
        for budget in [4 << 10, 0] {
            let renderer = try MapRenderer(map: map)
            renderer.pixelPartsBudget = budget
            #expect(try renderer.renderImage(view: view, tileSize: 256) == reference)
            #expect(renderer.peakPixelPartsBytes <= budget)
        }
        // The lines were drawn: dark pixels on both sides of the edge between the columns.
        var dark = (left: 0, right: 0)
        for y in 0..<reference.height {
            for x in 200..<312 where reference.darkness(x, y) > 0.3 {
                if x < 256 { dark.left += 1 } else { dark.right += 1 }
            }
        }
        #expect(dark.left > count && dark.right > count)
    }

    /// Labelled places over lines: no label placement is held while the layers are drawn,
    /// neither this view's (made after them) nor an earlier resolution's beyond an eighth of
    /// the budget, however many places there are.
    @Test(arguments: [200, 800])
    func labelPlacementIsNotHeldWhileLayersAreDrawn(count: Int) throws {
        let places = (0..<count).map { (i: Int) -> String in
            let lon: Double = -170 + Double((i * 7919) % 3400) / 10
            let lat: Double = -70 + Double((i * 104_729) % 1400) / 10
            return TestMap.point(lon, lat, #"{"name": "P\#(i)"}"#)
        }
        let labels = #"{"name": "places", "label": {"attribute": "name", "size": 10}}"#
        let map = try TestMap.load(features: places + Self.lines(20), layers: [Self.lineLayer, labels])
        let renderer = try MapRenderer(map: map)
        let first = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        _ = try renderer.renderImage(view: first, tileSize: 256)
        let kept = renderer.labelCacheBytes
        #expect(kept > 40 * count)  // the placement was made, and kept for the next views
        #expect(renderer.peakLabelBytesWhileDrawingLayers == 0)
        // A new resolution: an eighth of the budget is less than the first view kept.
        renderer.labelPlacementBudget = 4 * kept
        let second = try View.tiles(z: 2, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let image = try renderer.renderImage(view: second, tileSize: 256)
        #expect(renderer.peakLabelBytesWhileDrawingLayers == 0)
        #expect(renderer.labelCacheBytes > 0)
        // Labels were drawn: dark text where no line goes (west of 40 W).
        var text = 0
        for y in 0..<image.height {
            for x in 0..<400 where image.darkness(x, y) > 0.5 { text += 1 }
        }
        #expect(text > 100)
    }
}
