import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// One zone's grid carried over its edge (`GridRequest.zone`, for sheets printed in that
/// zone's plane): the lines run on across the zone boundary in the zone's own coordinates,
/// checked with GeoConvert in the forced zone, and no other zone's lines, boundaries or
/// labels appear.
@Suite struct ExtendedZoneTests {
    /// A view of Web Mercator at zoom 10 across the 18/19 boundary at 72°W, 41°N.
    static let view = TestView.zoom("zone 18/19 edge", 10, lon: -72, lat: 41)

    static func generate(zone: Int?) throws -> GridGeometry {
        var request = GridRequest(type: .mgrs)
        request.levels = [1, 2]
        request.labels = false
        request.zone = zone
        return try Grid.generate(request, projection: view.projection, area: view.area)
    }

    @Test func linesCarryOnInTheirZonesCoordinates() throws {
        let grid = try Self.generate(zone: 18)
        #expect(grid.labels.isEmpty)
        #expect(!grid.lines.contains { $0.axis == .boundary })
        var input: [String] = []
        var expected: [(axis: GridAxis, value: Double)] = []
        var beyond = 0
        for line in grid.lines {
            #expect(line.zone?.hasPrefix("18") == true, "\(line.axis) \(line.value) is in \(line.zone ?? "no zone")")
            for v in line.vertices {
                input.append(GeoConvert.text(latitude: v.position.latitude, longitude: v.position.longitude))
                expected.append((line.axis, line.value))
                if v.position.longitude > -72 { beyond += 1 }
            }
        }
        // Zone 19 begins at 72°W: a good part of the view is beyond zone 18's edge.
        #expect(beyond > 20, "only \(beyond) vertices east of 72°W")
        let out = try GeoConvert.run(["-u", "-z", "18n", "-p", "4"], input)
        for (text, want) in zip(out, expected) {
            let parts = text.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2, "GeoConvert said '\(text)'")
            let got = want.axis == .easting ? parts[0] : parts[1]
            #expect(abs(got - want.value) < 0.01, "\(want.axis) \(want.value): \(text)")
        }
    }

    /// Without the option the same view has both zones' lines, each stopping at 72°W.
    @Test func withoutItEachZoneStopsAtItsEdge() throws {
        let grid = try Self.generate(zone: nil)
        let zones = Set(grid.lines.compactMap { $0.zone.map { String($0.dropLast()) } })
        #expect(zones == ["18", "19"])
        for line in grid.lines where line.zone?.hasPrefix("18") == true {
            #expect(line.vertices.allSatisfy { $0.position.longitude <= -72 + 1e-9 })
        }
    }

    @Test func aZoneThatDoesNotExist() {
        #expect(throws: GridError.self) { try Self.generate(zone: 61) }
    }
}
