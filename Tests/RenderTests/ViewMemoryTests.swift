import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// What one view holds at once grows with the largest layer it draws, not with the whole map,
/// and a label candidate is a few dozen bytes whatever the number of places.
@Suite struct ViewMemoryTests {
    /// `count` short lines over the view, drawn by three layers: the view of a block of tiles
    /// holds one layer's features at a time, so the peak is `count`, not three times it.
    @Test(arguments: [40, 80, 160])
    func aViewHoldsOneLayerAtATime(count: Int) throws {
        var features: [String] = []
        for i in 0..<count {
            let lon = -170 + Double(i % 40) * 8.5
            let lat = -60 + Double(i / 40) * 10
            features.append(
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[\#(lon), \#(lat)], [\#(lon + 5), \#(lat + 4)]]}}"#
            )
        }
        let layers = ["#1f77b4", "#ff7f0e", "#2ca02c"].enumerated().map { i, color in
            #"{"name": "lines\#(i)", "line": {"color": "\#(color)", "width": \#(i + 1)}}"#
        }
        let map = try TestMap.load(features: features, layers: layers)
        let renderer = try MapRenderer(map: map)
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let image = try renderer.renderImage(view: view, tileSize: 256)
        #expect(renderer.peakFeaturesHeld == count)
        #expect(renderer.featuresHeld == 0)
        // Every layer was drawn: the last layer's green shows over the others somewhere.
        var green = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                if p.g > 150 && p.r < 80 && p.b < 80 { green += 1 }
            }
        }
        #expect(green > count)
    }

    /// A point label or a marker keeps no array of boxes, and its fields are narrow: 300,000
    /// places are 600,000 candidates held by a view of the whole world.
    @Test func candidatesAreCompact() {
        let owner = PlacementCandidate.Owner(kind: .mapLabel, layer: 3, rule: 2, feature: 1 << 40, instance: 7)
        let box = Rect(minX: 1, minY: 2, maxX: 30, maxY: 14)
        let point = PlacementCandidate(
            owner: owner, priority: 1, position: 5, anchor: PlanePoint(x: 3, y: 4), boxes: [box],
            allowOverlap: false, ignorePlacement: false)
        #expect(point.heapBytes == 0)
        #expect(Array(point.boxes) == [box])
        #expect((point.owner.layer, point.owner.rule, point.owner.feature, point.owner.instance) == (3, 2, 1 << 40, 7))
        #expect(point.position == 5)
        #expect(MemoryLayout<PlacementCandidate>.stride <= 96)
        let second = Rect(minX: 31, minY: 2, maxX: 60, maxY: 14)
        let curved = PlacementCandidate(
            owner: owner, priority: 1, position: 0, anchor: PlanePoint(x: 3, y: 4), boxes: [box, second],
            allowOverlap: false, ignorePlacement: false)
        #expect(Array(curved.boxes) == [box, second])
        #expect(curved.bounds == box.union(second))
        #expect(curved.heapBytes >= 2 * MemoryLayout<Rect>.stride)
    }
}
