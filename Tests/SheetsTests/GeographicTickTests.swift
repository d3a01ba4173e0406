import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// The geographic ticks of UTM sheets: each on the neatline where GeoConvert says its
/// meridian or parallel meets it, every 2.5', 5' or 10' as the scale asks, labelled beside the
/// tick (found there by poppler) with its minutes and seconds.
@Suite struct GeographicTickTests {
    static func sheet(_ lon: Double, _ lat: Double, scale: Double, grid: GridType = .mgrs) throws -> (
        Sheet, MapRenderer
    ) {
        let renderer = try MapRenderer(map: try Support.blankMap())
        let request = SheetRequest(
            area: .center(longitude: lon, latitude: lat), scale: scale,
            paper: Paper.standard(named: "A4")!.oriented(.landscape), dpi: 100, grid: .type(grid))
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// Sheets east and west of the central meridian, north and south of the equator.
    static let cases: [(lon: Double, lat: Double, scale: Double, zone: String, minutes: Double)] = [
        (-73.97, 40.76, 25_000, "18n", 2.5), (-77.9, 40.8, 100_000, "18n", 2.5), (18.5, -33.9, 50_000, "34s", 2.5),
        (10.5, 60.2, 250_000, "32n", 10), (-3.2, 55.9, 125_000, "30n", 5),
    ]

    @Test(arguments: 0..<5)
    func ticksMeetTheNeatlineWhereGeoConvertSays(index: Int) throws {
        let c = Self.cases[index]
        let (sheet, _) = try Self.sheet(c.lon, c.lat, scale: c.scale)
        let ticks = GeographicTicks.ticks(plane: sheet.plane, transform: sheet.transform, quadrangle: nil)
        #expect(ticks.count >= 2, "1:\(Int(c.scale)) at \(c.lon),\(c.lat): \(ticks.count) ticks")
        let frame = sheet.layout.frame
        let input = ticks.map { t -> String in
            let q = sheet.transform.plane(t.point)
            return "\(c.zone) \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))"
        }
        let output = try GeoConvert.run(["-g", "-p", "9"], input)
        for (t, line) in zip(ticks, output) {
            // On its side of the neatline.
            let edge: Double
            switch t.side {
            case .top: edge = t.point.y - frame.minY
            case .bottom: edge = t.point.y - frame.maxY
            case .left: edge = t.point.x - frame.minX
            case .right: edge = t.point.x - frame.maxX
            }
            #expect(abs(edge) < 0.01, "a \(t.side) tick is \(edge) mm off the neatline")
            // On its meridian or parallel, by GeoConvert, within 0.05 mm, at a multiple of the interval.
            let parts = line.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2)
            let (lat, lon) = (parts[0], parts[1])
            let off =
                t.kind == .latitude
                ? abs(lat - t.value) * 111_320 / c.scale * 1000
                : abs(lon - t.value) * 111_320 * cos(lat * .pi / 180) / c.scale * 1000
            #expect(off < 0.05, "the tick for \(t.value) is \(off) mm off it (GeoConvert: \(lat), \(lon))")
            let steps = t.value * 60 / c.minutes
            #expect(abs(steps - steps.rounded()) < 1e-6, "\(t.value)° is not a multiple of \(c.minutes)'")
        }
        // Neighbouring meridians along the top are one interval apart: none left out.
        let top = ticks.filter { $0.side == .top }.map(\.value).sorted()
        for (a, b) in zip(top, top.dropFirst()) { #expect(abs((b - a) * 60 - c.minutes) < 1e-6) }
    }

    /// Each tick's label is printed beside it, as poppler reads the PDF: `57'30"` for
    /// 73°57'30"W, and a whole degree in full.
    @Test func labelsBesideTheirTicks() throws {
        #expect(GeographicTicks.label(-73.958333333333, kind: .longitude) == "57'30\"")
        #expect(GeographicTicks.label(-74, kind: .longitude) == "74°W")
        #expect(GeographicTicks.label(40.75, kind: .latitude) == "45'")
        let (sheet, renderer) = try Self.sheet(-73.97, 40.76, scale: 25_000)
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("ticks.pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 100, to: pdf)
        let words = try PDFWord.read(pdf)
        let ticks = GeographicTicks.ticks(plane: sheet.plane, transform: sheet.transform, quadrangle: nil)
        for t in ticks {
            let text = GeographicTicks.label(t.value, kind: t.kind)
            let near = words.filter { $0.text == text }.map { hypot($0.centre.x - t.point.x, $0.centre.y - t.point.y) }
            #expect(near.contains { $0 < 6 }, "\(text) is not printed beside its \(t.side) tick: \(near)")
        }
    }

    /// A latitude/longitude sheet draws the graticule itself: no ticks.
    @Test func noTicksOnAGraticuleSheet() throws {
        let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: 25_000, grid: .latlong)
        let texts = sheet.page.items.compactMap { item -> String? in
            if case .text(let t) = item { return t.string } else { return nil }
        }
        #expect(!texts.contains("57'30\""))
    }
}
