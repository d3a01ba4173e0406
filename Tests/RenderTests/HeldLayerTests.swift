import Foundation
import Geodesy
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// What a view holds while it draws a layer: the features compactly, without the attributes
/// no symbol reads, made into `Feature` values a batch at a time; pixel parts kept only for
/// what more than one tile draws; nothing of a view's interior kept for the next views.
@Suite struct HeldLayerTests {
    /// `count` places with a long name no symbol reads, markers whose colour follows an
    /// attribute, scattered over the world.
    static func places(_ count: Int) -> [String] {
        (0..<count).map { i in
            let lon = -170 + Double((i * 7919) % 3400) / 10
            let lat = -70 + Double((i * 104_729) % 1400) / 10
            let name = String(repeating: "Placename\(i % 10)", count: 30)
            return TestMap.point(lon, lat, #"{"name": "\#(name)", "kind": \#(i % 3)}"#)
        }
    }

    static let markers =
        ##"{"name": "places", "marker": {"shape": "circle", "size": 6, "fill": ["match", ["get", "kind"], 0, "#d62728", 1, "#1f77b4", "#2ca02c"], "outline": {"color": "#ffffff", "width": 1}}}"##

    /// The bytes held per place stay under a bound that the unread 300-byte name alone would
    /// break, however many places there are (a `Feature` value of a place was some 500 bytes).
    @Test(arguments: [250, 1000, 4000])
    func heldBytesGrowByAFewDozenAPlace(count: Int) throws {
        let map = try TestMap.load(features: Self.places(count), layers: [Self.markers])
        let renderer = try MapRenderer(map: map)
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        _ = try renderer.renderImage(view: view, tileSize: 256)
        #expect(renderer.peakFeaturesHeld == count)
        #expect(renderer.peakBytesHeld > 16 * count)  // the coordinates, at least
        #expect(renderer.peakBytesHeld <= 160 * count + 4096)
    }

    /// Painted a few features at a time or all at once, a layer gives the same pixels: one
    /// pass of markers (their colours differing, overlapping), and lines over polygons.
    @Test func batchesPaintWhatOneCallPaints() throws {
        var features = Self.places(600)
        for i in 0..<60 {
            let x = -150 + Double(i) * 5
            features.append(
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[\#(x), -50], [\#(x + 20), 50]]}}"#
            )
        }
        let lines = ##"{"name": "lines", "line": {"color": "#404040", "width": 2}}"##
        let map = try TestMap.load(features: features, layers: [Self.markers, lines])
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let batched = try MapRenderer(map: map)
        batched.paintBatch = 7
        let whole = try MapRenderer(map: map)
        whole.paintBatch = Int.max
        let single = try View.tiles(z: 0, x: 0, y: 0, columns: 1, rows: 1, tileSize: 256, pixelRatio: 1)
        for (v, tileSize) in [(view, 256), (single, 256)] {
            let a = try batched.renderImage(view: v, tileSize: tileSize)
            let b = try whole.renderImage(view: v, tileSize: tileSize)
            #expect(a == b)
            // The colour attribute was kept: markers of each colour show.
            var red = 0
            var blue = 0
            for y in 0..<a.height {
                for x in 0..<a.width {
                    let p = a[x, y]
                    if p.r > 180 && p.g < 80 && p.b < 80 { red += 1 }
                    if p.b > 150 && p.r < 80 { blue += 1 }
                }
            }
            #expect(red > 100 && blue > 100)
        }
    }

    /// Short lines each inside one tile of a 2x2 block keep no pixel parts; lines across tile
    /// edges keep theirs (the tiles they cross use them).
    @Test(arguments: [40, 160])
    func pixelPartsAreKeptOnlyForWhatSeveralTilesDraw(count: Int) throws {
        var features: [String] = []
        for i in 0..<count {
            // Zoom 1 tiles meet at 0 degrees and at the equator: these stay well inside one.
            let lon = 20 + Double(i % 20) * 7
            let lat = 10 + Double(i / 20) * 0.5
            features.append(
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[\#(lon), \#(lat)], [\#(lon + 2), \#(lat + 1)], [\#(lon + 4), \#(lat)]]}}"#
            )
        }
        for i in 0..<5 {
            let lat = -40 + Double(i) * 20
            features.append(
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-30, \#(lat)], [0, \#(lat + 3)], [30, \#(lat)]]}}"#
            )
        }
        let map = try TestMap.load(features: features, layers: [##"{"name": "l", "line": {"color": "#333333"}}"##])
        let renderer = try MapRenderer(map: map)
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        _ = try renderer.renderImage(view: view, tileSize: 256)
        #expect(renderer.peakFeaturesHeld == count + 5)
        #expect(renderer.peakPixelPartsKept == 5)
    }
}
