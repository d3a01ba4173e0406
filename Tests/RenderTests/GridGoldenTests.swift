import Foundation
import Geodesy
import ImageDiff
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// Grids drawn over Fixtures/maps/world.json and nyc.json, compared with Fixtures/golden:
/// each type at a world view, zoom 6, zoom 12 and 1:25,000; each label position; each label
/// format and unit; a block of tiles; the two grid-*.json documents. `make golden-update`
/// rewrites them after an intended change.
@Suite struct GridGoldenTests {
    let golden = GoldenCheck(threshold: 0.015, allowedFraction: 0.0005)

    /// The scale denominator of zoom z for 256-pixel tiles at the standard pixel.
    static func zoomScale(_ z: Double) -> Double { 559_082_264.029 / pow(2, z) }

    static func document(_ name: String) throws -> MapDocument {
        try MapDocument.load(path: Repository.fixture("maps/\(name)"))
    }

    func check(
        _ name: String, map: String, grid: GridSettings?, view: View, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var document = try Self.document(map)
        if let grid { document.grid = grid }
        let image = try MapRenderer(map: try LoadedMap(document: document)).renderImage(view: view)
        do {
            try golden.verify(name, actual: image, expected: "Fixtures/golden/\(name).png")
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    static func views() throws -> [(name: String, map: String, view: View)] {
        [
            (
                "world", "world.json",
                try View.fitting(west: -180, south: -85, east: 180, north: 85, width: 512, height: 512)
            ),
            (
                "z6", "world.json",
                try View.centered(longitude: -75, latitude: 40, scale: zoomScale(6), width: 512, height: 384)
            ),
            (
                "z12", "nyc.json",
                try View.centered(longitude: -73.95, latitude: 40.72, scale: zoomScale(12), width: 512, height: 384)
            ),
            (
                "25k", "nyc.json",
                try View.centered(longitude: -73.97, latitude: 40.77, scale: 25_000, width: 512, height: 384)
            ),
        ]
    }

    @Test(arguments: GridType.allCases)
    func eachTypeAtFourScales(_ type: GridType) throws {
        for (name, map, view) in try Self.views() {
            try check("grid-\(type.rawValue)-\(name)", map: map, grid: GridSettings(type: type), view: view)
        }
    }

    @Test(arguments: GridSettings.LabelPosition.allCases.filter { $0 != .geographic })
    func eachLabelPosition(_ position: GridSettings.LabelPosition) throws {
        var grid = GridSettings(type: .mgrs)
        grid.labelPosition = position
        try check(
            "grid-position-\(position.rawValue)", map: "nyc.json", grid: grid,
            view: try View.centered(
                longitude: -73.95, latitude: 40.72, scale: Self.zoomScale(12), width: 512, height: 384))
        var latlong = GridSettings(type: .latlong)
        latlong.labelPosition = position
        try check(
            "grid-position-latlong-\(position.rawValue)", map: "world.json", grid: latlong,
            view: try View.centered(longitude: 10, latitude: 48, scale: Self.zoomScale(6), width: 512, height: 384))
    }

    /// The user's interval and offset: a 2 km UTM grid offset 1 km east over New York at
    /// 1:100,000 (its eastings 1 km past a multiple of 2 km), and a 5' graticule over Paris at
    /// zoom 10. Zoomed out until the lines would be closer than `minSpacing`, the automatic
    /// levels stand in.
    @Test func userIntervals() throws {
        var utm = GridSettings(type: .utm)
        utm.interval = GridInterval(x: 2000, y: 2000, offsetX: 1000)
        let nyc = try View.centered(longitude: -73.95, latitude: 40.72, scale: 100_000, width: 512, height: 384)
        try check("grid-utm-interval-2km", map: "nyc.json", grid: utm, view: nyc)
        var latlong = GridSettings(type: .latlong)
        latlong.interval = GridInterval(x: 5 / 60.0, y: 5 / 60.0)
        let paris = try View.centered(
            longitude: 2.35, latitude: 48.85, scale: Self.zoomScale(10), width: 512, height: 384)
        try check("grid-latlong-interval-5min", map: "world.json", grid: latlong, view: paris)

        let map = try LoadedMap(document: try Self.document("nyc.json"))
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        let overlay = GridOverlay(settings: utm, view: nyc, text: text)
        let grid = try #require(overlay.geometry(overlay.levels()))
        let eastings = grid.lines.filter { $0.axis == .easting }.map(\.value)
        // 512 px at 1:100,000 is about 10.8 km on the ground at 40.7°N: 5 or 6 eastings.
        #expect(eastings.count >= 4)
        for e in eastings { #expect((e - 1000).truncatingRemainder(dividingBy: 2000) == 0, "easting \(e)") }
        let zone6 = try View.centered(longitude: -75, latitude: 40, scale: Self.zoomScale(6), width: 512, height: 384)
        #expect(GridOverlay(settings: utm, view: zone6, text: text).request().interval == nil)
        #expect(overlay.request().interval == utm.interval)
    }

    @Test func formatsAndUnits() throws {
        var dd = GridSettings(type: .latlong)
        dd.labelFormat = .decimalDegrees
        try check(
            "grid-latlong-z9-decimal", map: "world.json", grid: dd,
            view: try View.centered(longitude: 2.35, latitude: 48.85, scale: Self.zoomScale(9), width: 512, height: 384)
        )
        try check(
            "grid-latlong-z9", map: "world.json", grid: GridSettings(type: .latlong),
            view: try View.centered(longitude: 2.35, latitude: 48.85, scale: Self.zoomScale(9), width: 512, height: 384)
        )
        try check(
            "grid-latlong-z12-decimal", map: "nyc.json", grid: dd,
            view: try View.centered(
                longitude: -73.95, latitude: 40.72, scale: Self.zoomScale(12), width: 512, height: 384))
        var meters = GridSettings(type: .usng)
        meters.labelUnit = .meters
        try check(
            "grid-usng-25k-meters", map: "nyc.json", grid: meters,
            view: try View.centered(longitude: -73.97, latitude: 40.77, scale: 25_000, width: 512, height: 384))
    }

    /// Tiles anchor labels to the grid only (edge positions fall back to geographic).
    @Test func blockOfTiles() throws {
        var grid = GridSettings(type: .mgrs)
        grid.labelPosition = .bottomLeft
        try check(
            "grid-mgrs-tiles-z12", map: "nyc.json", grid: grid,
            view: try View.tiles(z: 12, x: 1205, y: 1539, columns: 2, rows: 2))
    }

    /// The documents that carry their own grid: per-level colours, widths, dashes.
    @Test func gridDocuments() throws {
        try check(
            "grid-world", map: "grid-world.json", grid: nil,
            view: try View.centered(longitude: 10, latitude: 50, scale: Self.zoomScale(5), width: 640, height: 480))
        try check(
            "grid-nyc", map: "grid-nyc.json", grid: nil,
            view: try View.centered(longitude: -73.985, latitude: 40.758, scale: 8_000, width: 640, height: 480))
    }
}
