import Foundation
import Geodesy
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// A line style without expressions is evaluated once for a pass over many features, not
/// once per feature; what is drawn does not change.
@Suite struct LineStrokesTests {
    /// Lines across the tiles of a 2x2 block, each with `w = 2` and a kind.
    static let lines: [String] = (0..<40).map { i in
        let x = -160 + Double(i) * 7
        return
            #"{"type": "Feature", "properties": {"w": 2, "kind": \#(i % 2)}, "geometry": {"type": "LineString", "coordinates": [[\#(x), -60], [\#(x + 30), 0], [\#(x), 60]]}}"#
    }

    static func style(width: String, color: String = ##""#336699""##) -> String {
        #"{"name": "lines", "line": {"color": \#(color), "width": \#(width)}}"#
    }

    static func lineStyle(_ map: LoadedMap) -> LineStyle { map.document.layers[0].rules[0].lines[0] }

    static func scale(_ map: LoadedMap, _ view: View) -> SymbolScale {
        SymbolScale(layer: map.document.layers[0], map: map.document, view: view)
    }

    /// A feature's stroke from a shared `LineStrokes` (which must be shared) and worked out
    /// for the feature alone.
    static func sharedAndEach(_ line: LineStyle, _ scale: SymbolScale) throws -> (StrokeDrawing, StrokeDrawing) {
        let strokes = LineStrokes(line, scale)
        #expect(strokes.isShared)
        let feature = Feature(index: 0, geometries: [], properties: Properties([("kind", .number(1))]))
        let each = try #require(
            line.drawing(EvaluationContext(zoom: scale.zoom, properties: feature.properties), scale))
        return (try #require(strokes.drawing(feature)), each)
    }

    /// A constant style is shared, and is the stroke each feature would have got.
    @Test func constantStyleIsEvaluatedOnce() throws {
        let map = try TestMap.load(features: Self.lines, layers: [Self.style(width: "2")])
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let line = Self.lineStyle(map)
        let scale = Self.scale(map, view)
        let (shared, each) = try Self.sharedAndEach(line, scale)
        #expect(shared.width == each.width && shared.color == each.color && shared.offset == each.offset)
        #expect(shared.width > 1)
    }

    /// A style whose width is an expression of the zoom alone is shared too, at each zoom the
    /// stroke the expression gives there; one reading an attribute anywhere is not.
    @Test func zoomExpressionIsShared() throws {
        let width = #"["interpolate", ["linear"], ["zoom"], 0, 1, 4, 5]"#
        let map = try TestMap.load(features: Self.lines, layers: [Self.style(width: width)])
        let line = Self.lineStyle(map)
        #expect(!line.readsAttributes)
        var widths: [Double] = []
        for z in [1, 3] {
            let view = try View.tiles(z: z, x: 0, y: 0, columns: 1, rows: 1, tileSize: 256, pixelRatio: 1)
            let scale = Self.scale(map, view)
            let (shared, each) = try Self.sharedAndEach(line, scale)
            #expect(shared.width == each.width && shared.color == each.color)
            widths.append(shared.width)
        }
        #expect(widths[1] > widths[0] + 1)
        let reading = [
            "color": ##"["match", ["get", "kind"], 0, "#d62728", "#1f77b4"]"##,
            "opacity": #"["match", ["get", "kind"], 0, 0.5, 1]"#, "offset": #"["match", ["get", "kind"], 0, 1, 2]"#,
        ]
        for (key, value) in reading {
            let style = #"{"name": "lines", "line": {"\#(key)": \#(value)}}"#
            let other = try TestMap.load(features: Self.lines, layers: [style])
            #expect(Self.lineStyle(other).readsAttributes, "\(key)")
        }
    }

    /// A style reading an attribute is evaluated for each feature.
    @Test func attributeStyleIsEvaluatedPerFeature() throws {
        let color = ##"["match", ["get", "kind"], 0, "#d62728", "#1f77b4"]"##
        let map = try TestMap.load(features: Self.lines, layers: [Self.style(width: "2", color: color)])
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        let strokes = LineStrokes(Self.lineStyle(map), Self.scale(map, view))
        #expect(!strokes.isShared)
        let a = try #require(
            strokes.drawing(Feature(index: 0, geometries: [], properties: Properties([("kind", .number(0))]))))
        let b = try #require(
            strokes.drawing(Feature(index: 1, geometries: [], properties: Properties([("kind", .number(1))]))))
        #expect(a.color != b.color)
    }

    /// Lines drawn with a shared stroke (set once per pass, over batches and tiles) and with
    /// the same stroke evaluated feature by feature give the same pixels.
    @Test func sharedStrokeDrawsWhatPerFeatureStrokesDraw() throws {
        let constant = try TestMap.load(features: Self.lines, layers: [Self.style(width: "2")])
        // An expression of an attribute whose every outcome is 2: evaluated per feature, with
        // the same reach (a literal bound) as the constant.
        let width = #"["match", ["get", "kind"], 0, 2, 2]"#
        let perFeature = try TestMap.load(features: Self.lines, layers: [Self.style(width: width)])
        let view = try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2, tileSize: 256, pixelRatio: 1)
        #expect(!LineStrokes(Self.lineStyle(perFeature), Self.scale(perFeature, view)).isShared)
        let a = try MapRenderer(map: constant)
        a.paintBatch = 7
        let b = try MapRenderer(map: perFeature)
        b.paintBatch = 7
        let shared = try a.renderImage(view: view, tileSize: 256)
        let each = try b.renderImage(view: view, tileSize: 256)
        var differing = 0
        for y in 0..<shared.height {
            for x in 0..<shared.width where shared[x, y] != each[x, y] { differing += 1 }
        }
        #expect(differing == 0)
        var drawn = 0
        for y in 0..<shared.height {
            for x in 0..<shared.width where Int(shared[x, y].b) > Int(shared[x, y].r) + 40 { drawn += 1 }
        }
        #expect(drawn > 2000)
    }
}
