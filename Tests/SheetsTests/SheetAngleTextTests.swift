import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Grids
@testable import Sheets

/// The angles a UTM sheet prints besides its grid: the geographic ticks' values clear a zebra
/// or line border, and the corners and ticks follow the grid's `annotation` when it writes
/// latitudes and longitudes (checked against GeoConvert's own formatting).
@Suite struct SheetAngleTextTests {
    static func sheet(_ area: SheetRequest.Area, grid: String, scale: Double? = nil) throws -> (Sheet, MapRenderer) {
        let renderer = try MapRenderer(map: try SheetGridTests.map(grid: grid))
        let request = SheetRequest(
            area: area, scale: scale, paper: Paper.standard(named: "A3")!, dpi: 100, grid: .document)
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// On a quadrangle sheet (its neatline leaning) with a 5 pt zebra or line border, every
    /// geographic tick value lies inside the neatline and at least the border's depth from it.
    @Test func tickValuesClearTheBorder() throws {
        let quad = try Quadrangle(holding: 40.8, longitude: -77.9, size: 0.25)
        for frame in ["zebra", "line"] {
            let (sheet, renderer) = try Self.sheet(
                .quadrangle(quad), grid: #"{"type": "mgrs", "frame": "\#(frame)", "frameWidth": 5}"#)
            let w = 5 * 25.4 / 72
            let items = GeographicTicks.items(
                plane: sheet.plane, transform: sheet.transform, quadrangle: quad, border: sheet.grid?.marks,
                measure: { renderer.measure($0) })
            var checked = 0
            for item in items {
                guard case .text(let text) = item else { continue }
                let box = FrameGrid.box(of: renderer.measure(text), at: text.position, anchor: text.anchor)
                for corner in box.corners {
                    #expect(PolygonMath.contains(sheet.neatline, corner), "\(frame): \(text.string) leaves the map")
                    let d = QuadrangleMarksTests.distance(corner, to: sheet.neatline)
                    #expect(d >= w, "\(frame): \(text.string) is \(d) mm from the neatline, on the \(w) mm border")
                }
                checked += 1
            }
            #expect(checked >= 4, "\(frame): \(checked) tick values")
        }
    }

    /// A UTM sheet whose grid's annotation writes D°M′S″ padded: the four corners' coordinates
    /// and every geographic tick's value are GeoConvert's (`-d -p -1`) in the annotation's form.
    @Test func cornersAndTicksFollowTheAnnotation() throws {
        let (sheet, _) = try Self.sheet(
            .center(longitude: -73.97, latitude: 40.76),
            grid: #"{"type": "utm", "annotation": {"format": "DMS", "padding": true}}"#, scale: 25_000)
        let texts = Set(
            sheet.page.items.compactMap { item -> String? in
                guard case .text(let t) = item else { return nil }
                return t.string
            })
        let f = sheet.layout.frame
        let corners = [
            PlanePoint(x: f.minX, y: f.minY), PlanePoint(x: f.maxX, y: f.minY), PlanePoint(x: f.minX, y: f.maxY),
            PlanePoint(x: f.maxX, y: f.maxY),
        ]
        let input = corners.map { c -> String in
            let q = sheet.transform.plane(c)
            return "18n \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))"
        }
        for line in try GeoConvert.run(["-d", "-p", "-1"], input) {
            for field in line.split(separator: " ") {
                let reference = GeoConvert.annotation(fromDMS: field)
                let expected = reference.text + " " + reference.letter
                #expect(texts.contains(expected), "corner \(expected) is not printed")
            }
        }
        let ticks = GeographicTicks.ticks(plane: sheet.plane, transform: sheet.transform, quadrangle: nil)
        #expect(ticks.count >= 4)
        let values = ticks.map { t in t.kind == .latitude ? "\(t.value) 0" : "0 \(t.value)" }
        for (t, line) in zip(ticks, try GeoConvert.run(["-d", "-p", "-1"], values)) {
            let fields = line.split(separator: " ")
            let reference = GeoConvert.annotation(fromDMS: fields[t.kind == .latitude ? 0 : 1])
            let expected = reference.text + " " + reference.letter
            #expect(texts.contains(expected), "the \(t.side) tick's \(expected) is not printed")
        }
        // Without the annotation's text keys, the forms of before: `57'30"` and `40°49'25"N`.
        let (plain, _) = try Self.sheet(
            .center(longitude: -73.97, latitude: 40.76), grid: #"{"type": "utm", "annotation": {"left": {}}}"#,
            scale: 25_000)
        let plainTexts = plain.page.items.compactMap { item -> String? in
            guard case .text(let t) = item else { return nil }
            return t.string
        }
        #expect(plainTexts.contains { $0.hasSuffix("'30\"") })
        #expect(!plainTexts.contains { $0.contains("″") })
    }
}
