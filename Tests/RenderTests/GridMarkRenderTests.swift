import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// Grid styles in rendered views: crosses and edge ticks where the Web Mercator formula and
/// GeoConvert put them, sub-ticks dividing the interval evenly in value, pixels drawn only
/// at the marks, the document's keys and their errors, and golden images.
@Suite struct GridMarkRenderTests {
    static let paris = {
        try! View.centered(longitude: 2.35, latitude: 48.85, scale: 559_082_264.029 / 1024, width: 512, height: 384)
    }()

    static func overlay(_ settings: GridSettings, _ view: View) throws -> GridOverlay {
        let map = try GridRenderTests.map("world.json", grid: nil)
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        return GridOverlay(settings: settings, view: view, text: text)
    }

    /// A 5' graticule drawn as ticks with 4 sub-ticks, zoom 10 over Paris: along the bottom
    /// edge a tick at every meridian 5' apart, at the formula's pixel, 6 pt long and upright;
    /// between two ticks four half-length sub-ticks at the 1' meridians; nothing else but
    /// ticks.
    @Test func ticksAndSubTicksAreAtTheirMeridians() throws {
        var settings = GridSettings(type: .latlong)
        settings.interval = GridInterval(x: 5 / 60.0, y: 5 / 60.0)
        settings.marks.kind = .ticks
        settings.marks.subTicks = 4
        let view = Self.paris
        let overlay = try Self.overlay(settings, view)
        let grid = try #require(overlay.geometry(overlay.levels()))
        let marked = overlay.markedLines(grid)
        let r = view.globalBounds
        let length = 6 * view.pixelsPerPoint
        let bottom = marked.filter { abs($0.vertices[0].point.y - r.maxY) < 1e-9 && $0.axis == .longitude }
        let ticks = bottom.filter {
            abs(WebMercatorFormula.distance($0.vertices[0].point, $0.vertices[1].point) - length) < 1e-9
        }
        let subTicks = bottom.filter {
            abs(WebMercatorFormula.distance($0.vertices[0].point, $0.vertices[1].point) - length / 2) < 1e-9
        }
        #expect(ticks.count + subTicks.count == bottom.count)
        #expect(ticks.count >= 3)
        #expect(subTicks.count >= 4 * (ticks.count - 1))
        for tick in ticks + subTicks {
            let p = tick.vertices[0].point
            let q = tick.vertices[1].point
            let expected = WebMercatorFormula.pixel(latitude: 0, longitude: tick.value, resolution: view.resolution)
            #expect(abs(p.x - expected.x) < 1e-6 && q.x == p.x && q.y < p.y, "tick of \(tick.value)")
        }
        for tick in ticks {
            let minutes = tick.value * 60
            #expect(abs(minutes / 5 - (minutes / 5).rounded()) < 1e-6, "a tick at \(minutes)'")
        }
        for tick in subTicks {
            let minutes = tick.value * 60
            #expect(abs(minutes - minutes.rounded()) < 1e-6, "a sub-tick at \(minutes)'")
            #expect(abs(minutes / 5 - (minutes / 5).rounded()) > 1e-6, "a sub-tick on a 5' line")
        }
        // Only ticks: every piece starts on an edge.
        for piece in marked {
            let p = piece.vertices[0].point
            let onEdge = [abs(p.x - r.minX), abs(p.x - r.maxX), abs(p.y - r.minY), abs(p.y - r.maxY)].min()! < 1e-9
            #expect(onEdge, "\(piece.axis) \(piece.value) is drawn away from the edges")
        }
    }

    /// On a blank map the pixels show the marks and nothing between them: with ticks the
    /// bottom edge is dark at a meridian and the middle of that meridian is white; with
    /// crosses the crossing is dark and the middle between two crossings is white; with
    /// lines (the default) that middle is dark.
    @Test func pixelsShowOnlyTheMarks() throws {
        let view = Self.paris
        var meridian = 0.0
        var parallels: [Double] = []
        for kind in GridMarkStyle.Kind.allCases {
            let json =
                #"{"type": "latlong", "interval": "5'", "labelsVisible": false, "style": "\#(kind.rawValue)"}"#
            let map = try GridRenderTests.blank(grid: json)
            let image = try MapRenderer(map: map).renderImage(view: view)
            // The meridian nearest the middle and the parallels around the middle row.
            let centre = view.transform.plane(global: view.globalBounds.center)
            let lonlat = WebMercator.inverse(centre)
            meridian = (lonlat.longitude * 12).rounded() / 12
            let lat0 = (lonlat.latitude * 12).rounded(.down) / 12
            parallels = [lat0, lat0 + 1 / 12.0]
            func x(_ lon: Double) -> Int {
                Int(
                    (WebMercatorFormula.pixel(latitude: 0, longitude: lon, resolution: view.resolution).x - view.originX)
                        .rounded(.down))
            }
            func y(_ lat: Double) -> Int {
                Int(
                    (WebMercatorFormula.pixel(latitude: lat, longitude: 0, resolution: view.resolution).y - view.originY)
                        .rounded(.down))
            }
            let mx = x(meridian)
            let between = (y(parallels[0]) + y(parallels[1])) / 2
            let dark = { (px: Int, py: Int) in max(image.darkness(px, py), image.darkness(px + 1, py)) > 0.2 }
            switch kind {
            case .lines:
                #expect(dark(mx, between), "lines: the meridian is not drawn between parallels")
            case .crosses:
                #expect(dark(mx, y(parallels[0])), "crosses: no cross at the crossing")
                #expect(!dark(mx, between), "crosses: the meridian is drawn between crosses")
            case .ticks:
                #expect(dark(mx, view.height - 2), "ticks: no tick at the bottom edge")
                #expect(!dark(mx, between), "ticks: the meridian is drawn inside the view")
            }
        }
    }

    /// UTM crosses in a rendered view of Brooklyn at 1:50,000 (1 km lines): each cross's centre is where GeoConvert
    /// puts its easting and northing, by the Web Mercator formula, to the quarter pixel.
    @Test func crossesAreWhereGeoConvertPutsThem() throws {
        var settings = GridSettings(type: .utm)
        settings.marks.kind = .crosses
        let view = try View.centered(longitude: -73.95, latitude: 40.72, scale: 50_000, width: 512, height: 384)
        let overlay = try Self.overlay(settings, view)
        let grid = try #require(overlay.geometry(overlay.levels()))
        let meetings = grid.intersections().filter { view.globalBounds.contains($0.point) }
        #expect(meetings.count >= 24)
        let converted = try GeoConvert.run(
            ["-g", "-p", "9"], meetings.map { "18n \(grid.lines[$0.xLine].value) \(grid.lines[$0.yLine].value)" })
        for (m, text) in zip(meetings, converted) {
            let parts = text.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2)
            let expected = WebMercatorFormula.pixel(
                latitude: parts[0], longitude: parts[1], resolution: view.resolution)
            #expect(WebMercatorFormula.distance(m.point, expected) < 0.3)
        }
        // The marks drawn are the arms of these crosses, 8 pt end to end.
        let arms = overlay.markedLines(grid).filter { $0.axis != .boundary }
        #expect(arms.count == 2 * grid.intersections().count)
    }

    /// Edge labels step in past inside ticks, so a tick never runs through its label.
    @Test func edgeLabelsClearTheTicks() throws {
        var settings = GridSettings(type: .latlong)
        settings.labelPosition = .allSides
        settings.marks.kind = .ticks
        settings.marks.tickLength = 10
        let view = Self.paris
        let overlay = try Self.overlay(settings, view)
        let grid = try #require(overlay.geometry(overlay.levels()))
        let labels = overlay.placedLabels(grid, overlay.levels())
        let ticks = overlay.markedLines(grid)
        #expect(!labels.isEmpty)
        for label in labels {
            for tick in ticks {
                let a = tick.vertices[0].point
                let b = tick.vertices[1].point
                let box = Rect(
                    minX: min(a.x, b.x) - 0.5, minY: min(a.y, b.y) - 0.5, maxX: max(a.x, b.x) + 0.5,
                    maxY: max(a.y, b.y) + 0.5)
                #expect(!label.textBox.overlaps(box), "\(label.text) over a tick")
            }
        }
    }

    /// Golden images, looked at before they were committed: UTM crosses over Brooklyn at
    /// 1:50,000 with labels bottom left, and a 5' graticule of ticks and 1' sub-ticks over
    /// Paris at zoom 10 with labels on all sides.
    @Test func goldens() throws {
        var crosses = GridSettings(type: .utm)
        crosses.marks.kind = .crosses
        crosses.labelPosition = .bottomLeft
        try GridGoldenTests().check(
            "grid-utm-crosses", map: "nyc.json", grid: crosses,
            view: try View.centered(longitude: -73.95, latitude: 40.72, scale: 50_000, width: 512, height: 384))
        var ticks = GridSettings(type: .latlong)
        ticks.interval = GridInterval(x: 5 / 60.0, y: 5 / 60.0)
        ticks.marks.kind = .ticks
        ticks.marks.subTicks = 4
        ticks.labelPosition = .allSides
        try GridGoldenTests().check("grid-latlong-ticks", map: "world.json", grid: ticks, view: Self.paris)
    }
}

/// The document's marking keys and their errors, each naming its JSON path.
@Suite struct GridMarkDocumentTests {
    let documents = GridDocumentTests()

    @Test func everyMarkKey() throws {
        let grid = try #require(
            try documents.decode(
                #"{"type": "utm", "style": "ticks", "tickLength": 4, "tickPosition": "outside", "subTicks": 3, "frame": "zebra", "frameWidth": 5}"#
            ))
        var expected = GridMarkStyle()
        expected.kind = .ticks
        expected.tickLength = 4
        expected.tickPosition = .outside
        expected.subTicks = 3
        expected.frame = .zebra
        expected.frameWidth = 5
        #expect(grid.marks == expected)
        #expect(try documents.decode(#"{"type": "utm"}"#)?.marks == GridMarkStyle())
        let crosses = try #require(try documents.decode(#"{"type": "mgrs", "style": "crosses", "crossLength": 12}"#))
        #expect(crosses.marks.kind == .crosses && crosses.marks.crossLength == 12)
        // A change of type keeps the marks.
        #expect(crosses.withType(.latlong).marks == crosses.marks)
    }

    @Test func errorsNameTheirPlace() {
        documents.expectError(
            #"{"type": "utm", "style": "dots"}"#, "m.json: grid.style: \"dots\" is not one of: lines, crosses, ticks")
        documents.expectError(
            #"{"type": "utm", "crossLength": 4}"#, "m.json: grid.crossLength: crossLength needs \"style\": \"crosses\"")
        documents.expectError(
            #"{"type": "utm", "style": "crosses", "tickPosition": "inside"}"#,
            "m.json: grid.tickPosition: tickPosition needs \"style\": \"ticks\"")
        documents.expectError(
            #"{"type": "utm", "subTicks": 12}"#,
            "m.json: grid.subTicks: 12 is out of range (0 to 9 sub-ticks between lines)")
        documents.expectError(
            #"{"type": "utm", "subTicks": 1.5}"#, "m.json: grid.subTicks: expected a whole number, got 1.5")
        documents.expectError(
            #"{"type": "utm", "style": "crosses", "crossLength": 0}"#,
            "m.json: grid.crossLength: 0 is out of range (0.5 to 100)")
        documents.expectError(
            #"{"type": "utm", "frameWidth": 2}"#, "m.json: grid.frameWidth: frameWidth needs a \"frame\": zebra or line"
        )
        documents.expectError(
            #"{"type": "utm", "frame": "double"}"#, "m.json: grid.frame: \"double\" is not one of: none, zebra, line")
    }
}
