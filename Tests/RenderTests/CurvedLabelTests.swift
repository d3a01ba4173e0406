import Foundation
import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// Text along a line: every glyph's centre on the line, turned with it, in reading order.
@Suite struct CurvedLabelTests {
    static let radius = 200.0
    static let view = try! View.centered(longitude: 0, latitude: 0, scale: 2_000_000, width: 600, height: 500)

    /// An arc of a circle of `radius` pixels around the view's centre, from `from` to `to`
    /// degrees (counterclockwise on the image from east), as a GeoJSON line.
    static func arc(from: Double, to: Double, name: String) -> String {
        let centre = view.globalPixel(PlanePoint(x: 0, y: 0))
        let points = stride(from: from, through: to, by: (to - from) / 360).map { degrees -> String in
            let a = degrees * .pi / 180
            let g = PlanePoint(x: centre.x + radius * cos(a), y: centre.y - radius * sin(a))
            let p = WebMercator.inverse(view.mercator(globalPixel: g))
            return "[\(p.longitude), \(p.latitude)]"
        }
        return
            #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "LineString", "coordinates": [\#(points.joined(separator: ","))]}}"#
    }

    func placed(_ features: [String], label: String) throws -> [CurvedText] {
        let map = try TestMap.load(features: features, layers: [#"{"name": "l", "label": \#(label)}"#])
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        let space = LabelSpace(
            map: map, view: Self.view, text: text, images: try ImageLibrary(document: map.document),
            readers: LayerReaders(map: map))
        return try space.placedLabels(in: Self.view.globalBounds).compactMap {
            if case .curved(let curved) = $0.content { return curved }
            return nil
        }
    }

    @Test func glyphsSitOnTheArcTurnedWithIt() throws {
        // Drawn right to left over the top (180° to 0°): upright text reads it the other way.
        let labels = try placed(
            [Self.arc(from: 150, to: 30, name: "Along the arc")],
            label: #"{"attribute": "name", "placement": "line", "size": 14, "maxAngle": 45}"#)
        #expect(labels.count == 1)
        let glyphs = try #require(labels.first).glyphs
        #expect(glyphs.count == "Along the arc".count)
        let centre = Self.view.globalPixel(PlanePoint(x: 0, y: 0))
        var previousX = -Double.infinity
        for glyph in glyphs {
            let dx = glyph.centre.x - centre.x
            let dy = glyph.centre.y - centre.y
            // On the circle, within the half pixel the line is simplified to.
            #expect(abs(hypot(dx, dy) - Self.radius) < 0.51, "glyph off the arc by \(hypot(dx, dy) - Self.radius)")
            // Turned with the tangent, which is square to the radius: reading clockwise over
            // the top, the glyph's direction is the radius turned a quarter clockwise.
            let tangent = atan2(dy, dx) + .pi / 2
            #expect(abs(remainder(glyph.angle - tangent, 2 * .pi)) < 4.1 * .pi / 180)
            // Left to right on the page.
            #expect(glyph.centre.x > previousX)
            previousX = glyph.centre.x
        }
        // Neighbouring glyphs are their advances apart along the arc.
        for (a, b) in zip(glyphs, glyphs.dropFirst()) {
            let angle = abs(
                remainder(
                    atan2(b.centre.y - centre.y, b.centre.x - centre.x)
                        - atan2(a.centre.y - centre.y, a.centre.x - centre.x), 2 * .pi))
            let expected = (a.glyph.width + b.glyph.width) / 2
            #expect(abs(angle * Self.radius - expected) < 0.2, "\(angle * Self.radius) vs \(expected)")
        }
    }

    @Test func sharpBendsAndShortLinesGetNoLabel() throws {
        let zigzag =
            #"{"type": "Feature", "properties": {"name": "Zigzag"}, "geometry": {"type": "LineString", "coordinates": [[-0.6, 0], [-0.55, 0.08], [-0.5, 0], [-0.45, 0.08], [-0.4, 0], [-0.35, 0.08], [-0.3, 0], [-0.25, 0.08], [-0.2, 0], [-0.15, 0.08], [-0.1, 0]]}}"#
        let short =
            #"{"type": "Feature", "properties": {"name": "A name far longer than its line"}, "geometry": {"type": "LineString", "coordinates": [[1, 0], [1.2, 0]]}}"#
        let label = #"{"attribute": "name", "placement": "line", "size": 12, "maxAngle": 30}"#
        #expect(try placed([zigzag, short], label: label).isEmpty)
        // The same zigzag with a generous angle is labelled.
        let generous = try placed([zigzag], label: label.replacingOccurrences(of: "30", with: "180"))
        #expect(generous.count == 1, "\(generous.count)")
    }

    @Test func spacingRepeatsTheLabel() throws {
        let line =
            #"{"type": "Feature", "properties": {"name": "Road"}, "geometry": {"type": "LineString", "coordinates": [[-1, -1], [1, -1]]}}"#
        let once = try placed([line], label: #"{"attribute": "name", "placement": "line"}"#)
        let repeated = try placed([line], label: #"{"attribute": "name", "placement": "line", "spacing": 100}"#)
        #expect(once.count == 1)
        // 2 degrees at 1:2,000,000 (560 m a pixel) is 398 px: 100 pt (126 px) apart fits 3.
        #expect(repeated.count == 3)
    }
}
