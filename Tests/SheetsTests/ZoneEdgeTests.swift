import Foundation
import Geodesy
import Render
import TestSupport
import Testing

@testable import Sheets

/// Whether a sheet says it crosses a zone edge, and where, checked against GeoConvert's own
/// choice of zone: Norway's 32V spans 3°E–12°E and Svalbard's 33X 9°E–21°E, not 6° each.
@Suite struct ZoneEdgeTests {
    static func sheet(longitude: Double, latitude: Double, scale: Double) throws -> Sheet {
        let request = SheetRequest(
            area: .center(longitude: longitude, latitude: latitude), scale: scale,
            paper: Paper.standard(named: "A4")!.oriented(.landscape), dpi: 100, grid: .type(.mgrs))
        return try Sheet.make(request, renderer: try MapRenderer(map: try Support.blankMap()))
    }

    /// The sheet's note on its grid.
    static func note(_ sheet: Sheet) throws -> String {
        Sheet.gridNote(try #require(sheet.grid), plane: sheet.plane, transform: sheet.transform)
    }

    /// GeoConvert's standard zone (`32n`) for each position.
    static func zones(_ positions: [GeoPosition]) throws -> [String] {
        let input = positions.map { GeoConvert.text(latitude: $0.latitude, longitude: $0.longitude) }
        let output = try GeoConvert.run(["-u"], input)
        return output.map { String($0.split(separator: " ")[0]) }
    }

    /// Positions along the frame's edges.
    static func frameEdge(_ sheet: Sheet) -> [GeoPosition] {
        sheet.transform.extent.edgePoints(steps: 8).map { sheet.plane.unproject($0).position }
    }

    /// The sheet mentions no zone edge, and GeoConvert puts its whole frame in its zone.
    static func expectInside(_ sheet: Sheet, zone: String) throws {
        let note = try Self.note(sheet)
        #expect(!note.contains("zone edge"), "\(note)")
        #expect(try Set(Self.zones(Self.frameEdge(sheet))) == [zone])
    }

    /// The sheet says it crosses the meridian `edge` (whole degrees east), where GeoConvert
    /// changes from `zones[0]` to `zones[1]`, the two zones its frame lies in.
    static func expectCrossing(_ sheet: Sheet, at edge: Double, latitude: Double, zones: [String]) throws {
        let note = try Self.note(sheet)
        #expect(note.contains("crosses the zone edge at \(Int(edge))°E;"), "\(note)")
        let sides = [
            GeoPosition(latitude: latitude, longitude: edge - 1e-6),
            GeoPosition(latitude: latitude, longitude: edge + 1e-6),
        ]
        #expect(try Self.zones(sides) == zones)
        #expect(try Set(Self.zones(Self.frameEdge(sheet))) == Set(zones))
    }

    /// Bergen (32V) at 1:50,000 lies well inside its zone, though it is west of 6°E.
    @Test func bergenStaysInZone32() throws {
        let sheet = try Self.sheet(longitude: 5.32, latitude: 60.39, scale: 50_000)
        #expect(sheet.plane.zone == 32)
        try Self.expectInside(sheet, zone: "32n")
    }

    /// Off Norway's west coast at 1:250,000 the frame reaches over 3°E into 31V.
    @Test func norwayCoastCrosses3East() throws {
        let sheet = try Self.sheet(longitude: 3.4, latitude: 60.4, scale: 250_000)
        #expect(sheet.plane.zone == 32)
        try Self.expectCrossing(sheet, at: 3, latitude: 60.4, zones: ["31n", "32n"])
    }

    /// Svalbard (33X spans 9°E–21°E): a sheet over 18°E stays in its zone; one over 21°E
    /// crosses into 35X there.
    @Test func svalbardZonesAreTwelveDegreesWide() throws {
        let inside = try Self.sheet(longitude: 17.5, latitude: 78.5, scale: 250_000)
        #expect(inside.plane.zone == 33)
        try Self.expectInside(inside, zone: "33n")
        let crossing = try Self.sheet(longitude: 20.5, latitude: 78.5, scale: 250_000)
        #expect(crossing.plane.zone == 33)
        try Self.expectCrossing(crossing, at: 21, latitude: 78.5, zones: ["33n", "35n"])
    }
}
