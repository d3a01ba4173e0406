import Foundation
import Geodesy
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// A layer drawn a chunk at a time as it is read (`LayerChunks`): the view holds one chunk, not
/// the layer, and the pixels are those of the layer drawn at once, whatever the order the
/// source reads in.
@Suite struct LayerChunksTests {
    /// `count` lines in three colours (by attribute), crossing one another and tile edges, in
    /// file order: a line drawn over another shows which came last.
    static func lines(_ count: Int) -> [String] {
        var lines: [String] = []
        for i in 0..<count {
            let start = (x: -155 + Double((i * 7919) % 3000) / 10, y: -65 + Double((i * 104_729) % 1200) / 10)
            let step = (x: Double((i * 31) % 40) - 20, y: Double((i * 17) % 30) - 15)
            let coordinates = [(0.0, 0.0), (1, 1), (0.5, -1)].map {
                "[\(start.x + $0 * step.x), \(start.y + $1 * step.y)]"
            }
            lines.append(
                #"{"type": "Feature", "properties": {"kind": \#(i % 3)}, "geometry": {"type": "LineString", "coordinates": [\#(coordinates.joined(separator: ", "))]}}"#
            )
        }
        return lines
    }

    static let style =
        ##"{"name": "lines", "line": {"color": ["match", ["get", "kind"], 0, "#d62728", 1, "#1f77b4", "#2ca02c"], "width": 3}}"##

    static let views = [
        (try! View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1), 256),
        (try! View.tiles(z: 2, x: 0, y: 0, columns: 4, rows: 4, tileSize: 256, pixelRatio: 1), 256),
        (try! View.tiles(z: 0, x: 0, y: 0, columns: 1, rows: 1, tileSize: 256, pixelRatio: 1), 256),
    ]

    /// Two renderers of `map`, one drawing in chunks of 4 KB and one holding each layer whole,
    /// after each has drawn `views`; every view's pixels are the same from both.
    static func renderersDrawingTheSame(_ map: LoadedMap, in views: [(View, Int)]) throws -> (
        chunked: MapRenderer, whole: MapRenderer
    ) {
        let chunked = try MapRenderer(map: map)
        chunked.layerChunkBytes = 4096
        let whole = try MapRenderer(map: map)
        whole.layerChunkBytes = Int.max
        for (view, tileSize) in views {
            let same =
                try chunked.renderImage(view: view, tileSize: tileSize)
                == whole.renderImage(view: view, tileSize: tileSize)
            #expect(same)
        }
        return (chunked, whole)
    }

    /// With chunks of 4 KB, the most held at once stays near 4 KB whatever the number of lines
    /// (held whole, it grows with them), and every view has the pixels of the layer held whole.
    @Test(arguments: [300, 1200])
    func aLayerIsHeldAChunkAtATime(count: Int) throws {
        let map = try TestMap.load(features: Self.lines(count), layers: [Self.style])
        let (chunked, whole) = try Self.renderersDrawingTheSame(map, in: Self.views)
        #expect(whole.peakFeaturesHeld == count)
        #expect(whole.peakBytesHeld > 30 * 1024)
        // A chunk is drawn once it passes 4 KB: one line more than that at most.
        #expect(chunked.peakBytesHeld <= 4096 + 512)
        #expect(chunked.peakFeaturesHeld < count / 4)
        #expect(chunked.unorderedSources.isEmpty)
    }

    /// A layer that needs more than one pass over its features (an outline under a dashed
    /// line) is never drawn in chunks: chunks would draw feature by feature.
    @Test func aLayerOfTwoPassesIsHeldWhole() throws {
        let style =
            ##"{"name": "lines", "rules": [{"line": {"color": "#404040", "width": 5}}, {"line": {"color": "#ffffff", "width": 1, "dash": [4, 2]}}]}"##
        let map = try TestMap.load(features: Self.lines(400), layers: [style])
        let (chunked, _) = try Self.renderersDrawingTheSame(map, in: [Self.views[0]])
        #expect(chunked.peakFeaturesHeld == 400)
    }

    /// A source whose reader hands its features over in descending index: the view notices
    /// it after its first chunk, draws again with the layer held whole, and keeps doing so
    /// for that source; the pixels are those of a renderer that never chunks.
    @Test func aSourceReadOutOfOrderIsDrawnWhole() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let data = #"{"type": "FeatureCollection", "features": [\#(Self.lines(600).joined(separator: ","))]}"#
        try data.write(to: directory.appendingPathComponent("data.geojson"), atomically: true, encoding: .utf8)
        let layer = "{\"source\": \"data.geojson\", " + Self.style.dropFirst()
        let document =
            #"{"background": "white", "fonts": ["\#(Repository.fonts)"], "systemFonts": false, "layers": [\#(layer)]}"#
        let path = directory.appendingPathComponent("map.json").path
        try document.write(toFile: path, atomically: true, encoding: .utf8)
        let map = try LoadedMap.load(path: path, opener: ReversedOpener())

        let (chunked, whole) = try Self.renderersDrawingTheSame(map, in: Self.views)
        #expect(chunked.unorderedSources == [ObjectIdentifier(map.sources[0])])
        #expect(chunked.peakFeaturesHeld == 600)
    }
}

/// Opens GeoJSON files as `FeatureStore`s whose readers visit features in descending index.
private struct ReversedOpener: SourceOpener {
    func open(_ source: LayerSource, layer: Int, document: MapDocument) throws -> any FeatureSource {
        ReversedSource(try GeoJSONFiles().open(source, layer: layer, document: document) as! FeatureStore)
    }
}

private final class ReversedSource: FeatureSource, Sendable {
    let store: FeatureStore
    init(_ store: FeatureStore) { self.store = store }
    var bounds: Rect { store.bounds }
    var isIndexed: Bool { false }
    var geometryKinds: Set<Geometry.Kind>? { store.geometryKinds }
    func makeReader() throws -> any FeatureReader { ReversedReader(store) }
    func longestLabel(_ text: LabelText) throws -> Int { store.longestLabel(text) }
}

private final class ReversedReader: FeatureReader {
    let store: FeatureStore
    init(_ store: FeatureStore) { self.store = store }
    func features(in rect: Rect) throws -> [Feature] { store.features(in: rect) }
    func visitFeatures(in rect: Rect, _ body: (Feature) throws -> Void) throws {
        for feature in store.features(in: rect).reversed() { try body(feature) }
    }
}
