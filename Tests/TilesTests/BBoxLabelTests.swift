import Foundation
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Tiles

/// A `--bbox` pyramid labels a polygon its bbox cuts in the part inside, the same in every
/// metatile: the tiles do not depend on the metatile size, and stitched they are the one
/// image of the whole area.
@Suite struct BBoxLabelTests {
    /// A dark label on a light polygon from lon -3 to 0.6; the bbox keeps lon 0 to 5 at zoom 7
    /// (tile columns 64-65), so the whole polygon's centre (lon about -1.2) is outside it.
    @Test func cutPolygonIsLabelledInsideTheBBox() throws {
        let polygon =
            #"{"type": "Feature", "properties": {"name": "CUT"}, "geometry": {"type": "Polygon", "coordinates": [[[-3, -0.5], [0.6, -0.5], [0.6, 0.5], [-3, 0.5], [-3, -0.5]]]}}"#
        let map = try TestMap.load(
            features: [polygon],
            layers: [
                ##"{"name": "areas", "fill": {"color": "#eeeeee"}, "label": {"attribute": "name", "size": 9, "color": "#000000"}}"##
            ])
        let bounds = try GeoBounds(west: 0.01, south: -4, east: 5, north: 4)
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 7, max: 7), bounds: bounds)
        let range = try #require(pyramid.ranges.first)
        #expect(range == TileRange(z: 7, minX: 64, maxX: 65, minY: 62, maxY: 65))
        var outputs: [[String: [UInt8]]] = []
        for metatile in [1, 4] {
            let root = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(root) }
            _ = try TileJob(plan: try MetatilePlan(pyramid: pyramid, size: metatile), workers: 2).run(
                sink: DirectorySink(root: root, scheme: .xyz), encoder: PNGTileEncoder()
            ) {
                try MapTileRenderer(map: map, format: try TileFormat(), buffer: 128, extent: bounds)
            }
            outputs.append(try FileTree.files(under: root))
        }
        #expect(outputs[0].count == range.count && outputs[0] == outputs[1])
        // Stitched, the tiles are the one image of the area, and hold the label's dark text.
        var stitched = Image(width: 512, height: 1024)
        for column in 0..<2 {
            for row in 0..<4 {
                let bytes = try #require(outputs[0]["7/\(64 + column)/\(62 + row).png"])
                let tile = try PNG.decode(bytes)
                for y in 0..<256 { for x in 0..<256 { stitched[column * 256 + x, row * 256 + y] = tile[x, y] } }
            }
        }
        var whole = try View.tiles(z: 7, x: 64, y: 62, columns: 2, rows: 4)
        whole.renderedArea = whole.globalBounds
        SeamTests.expectSame(
            stitched, try MapRenderer(map: map).renderImage(view: whole, margin: 128), name: "tiles-bbox-label")
        var dark = 0
        for y in 0..<1024 { for x in 0..<512 where stitched.darkness(x, y) > 0.6 { dark += 1 } }
        #expect(dark > 20, "no label drawn inside the bbox")
    }
}
