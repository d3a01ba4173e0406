import Foundation
import Geodesy
import Render
import Testing

@testable import Sheets

/// Whether a sheet says it crosses a zone edge, and where, checked against GeoConvert's own
/// choice of zone: Norway's 32V spans 3°E–12°E and Svalbard's 33X 9°E–21°E, not 6° each.
@Suite struct ZoneEdgeTests {
    static func sheet(longitude: Double, latitude: Double, scale: Double) throws -> Sheet {
        let request = SheetRequest(
            area: .center(longitude: longitude, latitude: latitude), scale: scale,
            paper: try Paper.parse("A4").oriented(.landscape), dpi: 100, grid: .type(.mgrs))
        return try Sheet.make(request, renderer: try MapRenderer(map: try Support.blankMap()))
    }

    /// The sheet's note on its grid.
    static func note(_ sheet: Sheet) throws -> String {
        Sheet.gridNote(try #require(sheet.grid), plane: sheet.plane, transform: sheet.transform)
    }

    /// GeoConvert's standard zone (`32n`) for each position.
    static func zones(_ positions: [GeoPosition]) throws -> [String] {
        let input = positions.map { String(format: "%.12f %.12f\n", $0.latitude, $0.longitude) }.joined()
        let output = try Support.run("GeoConvert", ["-u"], input: input).split(separator: "\n")
        try #require(output.count == positions.count)
        return output.map { String($0.split(separator: " ")[0]) }
    }

    /// Positions along the frame's edges.
    static func frameEdge(_ sheet: Sheet) -> [GeoPosition] {
        sheet.transform.extent.edgePoints(steps: 8).map { sheet.plane.unproject($0).position }
    }

    /// Bergen (32V) at 1:50,000 lies well inside its zone: no edge to mention, though it is
    /// west of 6°E.
    @Test func bergenStaysInZone32() throws {
        let sheet = try Self.sheet(longitude: 5.32, latitude: 60.39, scale: 50_000)
        #expect(sheet.plane.zone == 32)
        let note = try Self.note(sheet)
        #expect(!note.contains("zone edge"), "\(note)")
        #expect(try Set(Self.zones(Self.frameEdge(sheet))) == ["32n"])
    }

    /// Off Norway's west coast at 1:250,000 the frame reaches over 3°E into 31V.
    @Test func norwayCoastCrosses3East() throws {
        let sheet = try Self.sheet(longitude: 3.4, latitude: 60.4, scale: 250_000)
        #expect(sheet.plane.zone == 32)
        let note = try Self.note(sheet)
        #expect(note.contains("crosses the zone edge at 3°E;"), "\(note)")
        let edge = try Self.zones([
            GeoPosition(latitude: 60.4, longitude: 3 - 1e-6), GeoPosition(latitude: 60.4, longitude: 3 + 1e-6),
        ])
        #expect(edge == ["31n", "32n"])
        #expect(try Set(Self.zones(Self.frameEdge(sheet))) == ["31n", "32n"])
    }

    /// Svalbard (33X spans 9°E–21°E): a sheet over 18°E stays in its zone; one over 21°E
    /// crosses into 35X there.
    @Test func svalbardZonesAreTwelveDegreesWide() throws {
        let inside = try Self.sheet(longitude: 17.5, latitude: 78.5, scale: 250_000)
        #expect(inside.plane.zone == 33)
        let insideNote = try Self.note(inside)
        #expect(!insideNote.contains("zone edge"), "\(insideNote)")
        #expect(try Set(Self.zones(Self.frameEdge(inside))) == ["33n"])

        let crossing = try Self.sheet(longitude: 20.5, latitude: 78.5, scale: 250_000)
        #expect(crossing.plane.zone == 33)
        let crossingNote = try Self.note(crossing)
        #expect(crossingNote.contains("crosses the zone edge at 21°E;"), "\(crossingNote)")
        let edge = try Self.zones([
            GeoPosition(latitude: 78.5, longitude: 21 - 1e-6), GeoPosition(latitude: 78.5, longitude: 21 + 1e-6),
        ])
        #expect(edge == ["33n", "35n"])
        #expect(try Set(Self.zones(Self.frameEdge(crossing))) == ["33n", "35n"])
    }
}
