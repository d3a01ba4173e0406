import Foundation
import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// The grid's `annotation` in a single image: each edge names the lines its side asks for,
/// left labels turned to read up the edge, every value written in D°M.mm′ with its hemisphere
/// first and sitting on the parallel or meridian the Web Mercator formula puts there.
@Suite struct GridAnnotationRenderTests {
    static func settings() throws -> GridSettings {
        let text = #"""
            {"layers": [], "grid": {"type": "latlong", "labelPosition": "allSides",
             "annotation": {"format": "DM.mm", "padding": true, "hemisphere": "prefix",
              "left": {"direction": "along"}, "top": {"axis": "none"}, "right": {"axis": "both"},
              "bottom": {"axis": "longitude"}}}}
            """#
        let value = try JSONParser.parse(Array(text.utf8), file: "map.json")
        return try #require(try MapDocument.decode(JSONNode(value: value, file: "map.json"), baseDirectory: "/").grid)
    }

    static func view() throws -> View {
        try View.centered(longitude: -73.97, latitude: 40.77, scale: 50_000, width: 512, height: 384)
    }

    /// `N 40°46.50′` as degrees (south and west negative).
    static func degrees(_ text: String) -> Double? {
        let pattern = try! NSRegularExpression(pattern: #"^([NSEW]) (\d{2,3})°(\d{2}\.\d{2})′$"#)
        guard let m = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        func group(_ i: Int) -> String { String(text[Range(m.range(at: i), in: text)!]) }
        let value = Double(group(2))! + Double(group(3))! / 60
        return group(1) == "S" || group(1) == "W" ? -value : value
    }

    @Test func eachEdgeNamesItsLinesInTheFormatAsked() throws {
        let map = try GridRenderTests.map("nyc.json", grid: nil)
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        let view = try Self.view()
        let overlay = GridOverlay(settings: try Self.settings(), view: view, text: text)
        let levels = overlay.levels()
        let grid = try #require(overlay.geometry(levels))
        let labels = overlay.placedLabels(grid, levels)
        let r = view.globalBounds
        let near = GridOverlay.edgePadding + 3
        var seen: [String: Int] = [:]
        for label in labels {
            let value = try #require(Self.degrees(label.text), "\(label.text) is not D°M.mm′ with a prefix")
            let isLatitude = label.text.hasPrefix("N") || label.text.hasPrefix("S")
            let b = label.textBox
            let edge =
                b.minX - r.minX < near
                ? "left"
                : r.maxX - b.maxX < near
                    ? "right" : b.minY - r.minY < near ? "top" : r.maxY - b.maxY < near ? "bottom" : "map"
            seen[edge, default: 0] += 1
            switch edge {
            case "left":
                #expect(isLatitude, "a meridian's value \(label.text) on the left")
                #expect(label.turned && b.height > 2 * b.width, "\(label.text) on the left is not along the edge")
            case "right":
                #expect(!label.turned && b.width > b.height, "\(label.text) on the right is not horizontal")
            case "bottom":
                #expect(!isLatitude, "a parallel's value \(label.text) at the bottom")
            default:
                Issue.record("\(label.text) at \(edge): the top names nothing, and edge labels stay at the edges")
            }
            // On its line: the formula puts the parallel (meridian) within half a pixel of the
            // label's anchor, and the label is centred on it along its edge.
            let p = WebMercatorFormula.pixel(
                latitude: isLatitude ? value : 40.77, longitude: isLatitude ? -73.97 : value,
                resolution: view.resolution)
            let off = isLatitude ? abs(p.y - label.anchor.y) : abs(p.x - label.anchor.x)
            #expect(off < 0.5, "\(label.text) is \(off) px off its line")
            let centre = isLatitude ? b.center.y : b.center.x
            #expect(abs(centre - (isLatitude ? p.y : p.x)) < 1, "\(label.text) is not centred on its line")
        }
        #expect((seen["left"] ?? 0) >= 2 && (seen["right"] ?? 0) >= 2 && (seen["bottom"] ?? 0) >= 2, "\(seen)")
        // Every value has two decimals of minutes, as the user asked: one width along each edge.
        #expect(labels.allSatisfy { $0.text.contains(".") && $0.text.split(separator: ".")[1].count == 3 })
    }

    /// Without an annotation, the edges are as they were: the same labels, the same texts.
    @Test func noAnnotationChangesNothing() throws {
        let map = try GridRenderTests.map("nyc.json", grid: nil)
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        var plain = GridSettings(type: .latlong)
        plain.labelPosition = .allSides
        var sidesOnly = plain
        sidesOnly.annotation = GridAnnotation()
        let view = try Self.view()
        func texts(_ settings: GridSettings) throws -> [String] {
            let overlay = GridOverlay(settings: settings, view: view, text: text)
            let levels = overlay.levels()
            return overlay.placedLabels(try #require(overlay.geometry(levels)), levels).map(\.text)
        }
        #expect(try texts(plain) == texts(sidesOnly))
        #expect(try texts(plain).contains { $0.hasSuffix("'N") || $0.hasSuffix("°N") })
    }

    /// Manhattan at 1:50,000 with the annotation above, looked at before it was committed.
    @Test func golden() throws {
        var document = try MapDocument.load(path: Repository.fixture("maps/nyc.json"))
        document.grid = try Self.settings()
        let image = try MapRenderer(map: try LoadedMap(document: document)).renderImage(view: try Self.view())
        try GoldenCheck(threshold: 0.015, allowedFraction: 0.0005).verify(
            "grid-latlong-annotation", actual: image, expected: "Fixtures/golden/grid-latlong-annotation.png")
    }
}
