import Foundation
import Geodesy
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Sheets

/// The sheet's grid and the map document's: the sheet prints the document's grid type by
/// default, in the document's style, and the map in its frame never carries a second grid.
@Suite struct SheetGridTests {
    static let centre = (longitude: -73.97, latitude: 40.76)

    static func map(grid: String?) throws -> LoadedMap {
        try Support.map(
            features: [TestMap.point(100, -60)], layers: [#"{"name": "far", "marker": {"size": 1}}"#],
            extra: grid.map { #", "grid": "# + $0 } ?? "")
    }

    static func sheet(_ map: LoadedMap, grid: SheetRequest.Grid = .document, scale: Double = 25_000) throws -> (
        Sheet, MapRenderer
    ) {
        let renderer = try MapRenderer(map: map)
        let request = SheetRequest(
            area: .center(longitude: centre.longitude, latitude: centre.latitude), scale: scale,
            paper: Paper.standard(named: "A4")!.oriented(.landscape), dpi: 150, grid: grid)
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// Pixels in the map frame that are clearly red (the document's grid colour below).
    static func redPixels(_ sheet: Sheet, _ renderer: MapRenderer) throws -> Int {
        let image = try PageWriter.renderImage(sheet.page, renderer: renderer, dpi: sheet.layout.dpi)
        let px = sheet.layout.dpi / 25.4
        let f = sheet.layout.frame
        var red = 0
        for y in Int(f.minY * px + 2)..<Int(f.maxY * px - 2) {
            for x in Int(f.minX * px + 2)..<Int(f.maxX * px - 2) {
                let p = image[x, y]
                if p.r > 150 && p.g < 110 && p.b < 110 { red += 1 }
            }
        }
        return red
    }

    @Test func theGridTypeFollowsTheDocument() throws {
        #expect(try Self.sheet(Self.map(grid: nil)).0.grid?.type == .mgrs)
        #expect(try Self.sheet(Self.map(grid: #"{"type": "latlong"}"#)).0.grid?.type == .latlong)
        #expect(try Self.sheet(Self.map(grid: #"{"type": "usng"}"#)).0.grid?.type == .usng)
        #expect(try Self.sheet(Self.map(grid: #"{"type": "usng", "visible": false}"#)).0.grid == nil)
        // --grid wins.
        #expect(try Self.sheet(Self.map(grid: #"{"type": "latlong"}"#), grid: .type(.utm)).0.grid?.type == .utm)
    }

    /// The document's per-level line style is printed: red 1 km lines 1 pt wide, and the
    /// lines measured in the PNG are red and about 1 pt (0.35 mm) wide.
    @Test func theDocumentsStyleIsPrinted() throws {
        let style =
            ##"{"type": "mgrs", "levels": {"3": {"line": {"color": "#e00000", "width": 1}, "text": {"color": "#e00000", "bold": true}}}}"##
        let (sheet, renderer) = try Self.sheet(Self.map(grid: style))
        let grid = try #require(sheet.grid)
        #expect(grid.interval == 1000)
        let level3 = try #require(grid.styles[3])
        #expect(
            level3.stroke.color == Color(rgb: 0xe00000) && abs(level3.stroke.width - 25.4 / 72) < 1e-9 && level3.bold)
        // The 1 km lines crossing a row of the frame: red, each about 0.35 mm of red ink.
        let image = try PageWriter.renderImage(sheet.page, renderer: renderer, dpi: sheet.layout.dpi)
        let px = sheet.layout.dpi / 25.4
        let f = sheet.layout.frame
        let y = Int((f.minY + f.height * 0.37) * px)
        var redness = 0.0
        var lines = 0
        var inLine = false
        for x in Int(f.minX * px + 2)..<Int(f.maxX * px - 2) {
            let p = image[x, y]
            let r = max(0, Double(p.r) - Double(p.g)) / 224
            redness += r
            if r > 0.3 && !inLine { lines += 1 }
            inLine = r > 0.3
        }
        #expect(lines >= 5, "\(lines) red lines across the frame")
        let width = redness / Double(lines) / px
        #expect(abs(width - 25.4 / 72) < 0.08, "lines are \(width) mm of red ink wide")
        // Values are printed in the level's colour.
        let coloured = sheet.page.items.compactMap { item -> PageText? in
            if case .text(let t) = item { return t } else { return nil }
        }
        .filter { $0.color == Color(rgb: 0xe00000) }
        #expect(coloured.count >= 8)
    }

    /// A document whose own grid is red latitude/longitude lines, printed with an MGRS grid:
    /// nothing red in the frame (the map is drawn without its grid); printed with its own
    /// grid type, the red lines are there.
    @Test func theMapFrameHasOneGrid() throws {
        let map = try Self.map(
            grid:
                ##"{"type": "latlong", "labelsVisible": false, "levels": {"0": {"line": {"color": "#e00000", "width": 1.5}}, "8": {"line": {"color": "#e00000", "width": 1.5}}}}"##
        )
        let (mgrs, renderer) = try Self.sheet(map, grid: .type(.mgrs))
        #expect(try Self.redPixels(mgrs, renderer) == 0)
        let (own, ownRenderer) = try Self.sheet(map)
        #expect(own.grid?.type == .latlong)
        #expect(try Self.redPixels(own, ownRenderer) > 500)
    }
}
