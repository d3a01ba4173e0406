import Foundation
import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// Point labels are measured for placement once per worker (`TextMeasures`), not laid out at
/// every zoom; what is placed and drawn stays what a fresh worker places and draws.
@Suite struct TextMeasuresTests {
    /// Places spread over the world, with labels of several kinds: offset, at alternative
    /// positions, wrapped, spaced, and a marker taking part in placement.
    static func places(_ count: Int) throws -> LoadedMap {
        var features: [String] = []
        var random = BoxSource.Random(state: 11)
        for i in 0..<count {
            let name = i % 7 == 0 ? "Place \(i) on the long river" : "P\(i)é"
            features.append(
                TestMap.point(
                    random.unit() * 340 - 170, random.unit() * 160 - 80, #"{"name": "\#(name)", "k": \#(i % 4)}"#))
        }
        return try TestMap.load(
            features: features,
            layers: [
                #"{"name": "a", "filter": {"property": "k", "==": 0}, "marker": {"shape": "circle", "size": 4}, "label": {"attribute": "name", "size": 9, "offset": [0, -6], "halo": {"width": 1}}}"#,
                #"{"name": "b", "filter": {"property": "k", "==": 1}, "label": {"attribute": "name", "size": 11, "positions": ["N", "E", "S", "W", "NE"], "distance": 3}}"#,
                #"{"name": "c", "filter": {"property": "k", "==": 2}, "label": {"attribute": "name", "size": 10, "maxWidth": 6, "lineHeight": 1.3}}"#,
                #"{"name": "d", "filter": {"property": "k", "==": 3}, "label": {"text": "{name} ({k})", "size": 8, "letterSpacing": 0.2}}"#,
            ])
    }

    static func placed(_ map: LoadedMap, zoom: Int, text: TextEngine) throws -> [LabelCandidate] {
        let side = 1 << max(0, zoom - 2)
        let view = try View.tiles(z: zoom, x: 0, y: 0, columns: side, rows: side, tileSize: 256, pixelRatio: 1)
        let space = LabelSpace(
            map: map, view: view, text: text, images: try ImageLibrary(document: map.document),
            readers: LayerReaders(map: map))
        return try space.placedLabels(in: view.globalBounds)
    }

    /// What a drawn label is: its placement, its text and where its text goes.
    static func summary(_ label: LabelCandidate) -> String {
        let corner: String
        switch label.content {
        case .text(let layout, let at):
            corner = "\(at.x) \(at.y) \(layout.extents.width) \(layout.extents.height)"
        case .measured: corner = "measured"
        case .curved: corner = "curved"
        case .marker(_, let centre): corner = "marker \(centre.x) \(centre.y)"
        }
        let boxes = label.placement.boxes.map { "\($0.minX) \($0.minY) \($0.maxX) \($0.maxY)" }
        return "\(label.id) \(label.text) \(boxes) \(corner)"
    }

    @Test func zoomsAfterTheFirstMeasureNothingAndPlaceTheSame() throws {
        let map = try Self.places(600)
        let fonts = try FontConfiguration(fonts: map.document.fonts, systemFonts: false)
        let worker = TextEngine(fonts: fonts)
        var first = 0
        for zoom in 0...3 {
            let before = worker.measures.measurements
            let kept = try Self.placed(map, zoom: zoom, text: worker).map(Self.summary)
            let fresh = try Self.placed(map, zoom: zoom, text: TextEngine(fonts: fonts)).map(Self.summary)
            #expect(kept == fresh, "zoom \(zoom)")
            #expect(!kept.isEmpty && !kept.contains { $0.hasSuffix("measured") }, "zoom \(zoom)")
            let measured = worker.measures.measurements - before
            if zoom == 0 {
                first = measured
            } else {
                #expect(measured == 0, "zoom \(zoom) measured \(measured) texts again")
            }
        }
        // Each text of each size and options once: 600 places, one label each.
        #expect(first == 600)
    }

    @Test func placementsAreTheCandidatesPlacements() throws {
        let map = try Self.places(200)
        let fonts = try FontConfiguration(fonts: map.document.fonts, systemFonts: false)
        let view = try View.tiles(z: 3, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let text = TextEngine(fonts: fonts)
        let maker = CandidateMaker(
            map: map, view: view, text: text, images: try ImageLibrary(document: map.document), edge: nil)
        let readers = LayerReaders(map: map)
        var compared = 0
        for layer in map.document.layers.indices {
            try readers.visitFeatures(
                layer: layer,
                in: Rect(
                    minX: -WebMercator.halfWorld, minY: -WebMercator.halfWorld, maxX: WebMercator.halfWorld,
                    maxY: WebMercator.halfWorld)
            ) { feature in
                let anchor = readers.anchor(layer: layer, feature)
                let made = maker.placements(layer: layer, feature: feature, anchor: anchor)
                let drawn = maker.candidates(layer: layer, feature: feature, anchor: anchor).map(\.placement)
                #expect(made.map(Self.describe) == drawn.map(Self.describe), "layer \(layer), \(feature.index)")
                compared += made.count
            }
        }
        #expect(compared > 200)
    }

    /// The workers of one map keep one table: a text measured by one is not measured by the
    /// other, and workers placing at once place what a worker with a table of its own places.
    @Test func workersOfOneMapShareTheirMeasures() throws {
        let map = try Self.places(600)
        let view = try View.tiles(z: 2, x: 0, y: 0, columns: 4, rows: 4, tileSize: 256, pixelRatio: 1)
        let first = try MapRenderer(map: map)
        let second = try MapRenderer(map: map)
        #expect(first.text.measures === second.text.measures)
        #expect(try MapRenderer(map: try Self.places(600)).text.measures !== first.text.measures)
        _ = try first.placedLabels(view: view)
        _ = try second.placedLabels(view: view)
        // Each text measured once in all, whichever worker measured it.
        var tables: [ObjectIdentifier: TextMeasures] = [:]
        for worker in [first, second] { tables[ObjectIdentifier(worker.text.measures)] = worker.text.measures }
        #expect(tables.values.reduce(0) { $0 + $1.measurements } == 600)

        // Two workers of a new map, each placing its half of zoom 3 at the same time.
        let fonts = try FontConfiguration(fonts: map.document.fonts, systemFonts: false)
        let halves = try [0, 4].map { x in
            try View.tiles(z: 3, x: x, y: 0, columns: 4, rows: 8, tileSize: 256, pixelRatio: 1)
        }
        let expected = try halves.map { try Self.placed(map, view: $0, text: TextEngine(fonts: fonts)) }
        let shared = try Self.places(600)
        nonisolated(unsafe) let workers = try halves.map { _ in try MapRenderer(map: shared) }
        nonisolated(unsafe) var got: [[String]] = [[], []]
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            do {
                let labels = try Self.placed(shared, view: halves[i], text: workers[i].text)
                lock.withLock { got[i] = labels }
            } catch { lock.withLock { failures.append("\(error)") } }
        }
        #expect(failures.isEmpty)
        #expect(got == expected)
        #expect(!got[0].isEmpty && !got[1].isEmpty)
    }

    static func placed(_ map: LoadedMap, view: View, text: TextEngine) throws -> [String] {
        let space = LabelSpace(
            map: map, view: view, text: text, images: try ImageLibrary(document: map.document),
            readers: LayerReaders(map: map))
        return try space.placedLabels(in: view.globalBounds).map(Self.summary)
    }

    static func describe(_ p: PlacementCandidate) -> String {
        "\(p.id) \(p.priority) \(p.anchor.x) \(p.anchor.y) \(p.boxes.map { "\($0.minX) \($0.minY) \($0.maxX) \($0.maxY)" })"
    }
}
