import Foundation
import Geodesy
import Testing

@testable import Grids

/// Which levels are drawn: at least 32 pt (40.3 px at the standard pixel) apart at the equator,
/// and always the coarsest. The zooms are those of 256-pixel tiles, the table in docs/grids.md.
@Suite struct LevelTests {
    static func levels(_ type: GridType, zoom: Int, format: LatLongLabelFormat = .degreesMinutesSeconds) -> [Int] {
        let resolution = 2 * WebMercator.halfWorld / (256 * Double(1 << zoom))
        return GridLevels.automatic(
            for: type, format: format, pixelsPerMetre: 1 / resolution, minSpacing: TestView.minSpacing)
    }

    /// The first zoom at which each level shows.
    static func firstZooms(_ type: GridType, format: LatLongLabelFormat = .degreesMinutesSeconds) -> [Int] {
        let count = GridLevels.levels(for: type, format: format).count
        return (0..<count).map { level in (0...24).first { levels(type, zoom: $0, format: format).contains(level) }! }
    }

    @Test func utmFamily() {
        #expect(Self.firstZooms(.mgrs) == [0, 6, 10, 13, 16, 20])
        #expect(Self.firstZooms(.usng) == [0, 6, 10, 13, 16, 20])
        #expect(Self.firstZooms(.utm) == [0, 6, 10, 13, 16])
        #expect(Self.levels(.mgrs, zoom: 12) == [0, 1, 2])
    }

    @Test func graticule() {
        #expect(Self.firstZooms(.latlong) == [0, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18])
        #expect(Self.firstZooms(.latlong, format: .decimalDegrees) == [0, 3, 4, 6, 7, 10, 11, 13, 14, 16, 17, 20])
        #expect(Self.levels(.latlong, zoom: 2) == [0])
    }

    @Test func stepsAndNames() {
        #expect(
            GridLevels.levels(for: .latlong).map(\.name) == [
                "30°", "10°", "5°", "1°", "30'", "10'", "5'", "1'", "30\"", "10\"", "5\"", "1\"",
            ])
        #expect(
            GridLevels.levels(for: .latlong, format: .decimalDegrees).map(\.name)
                == [
                    "30°", "10°", "5°", "1°", "0.5°", "0.1°", "0.05°", "0.01°", "0.005°", "0.001°", "0.0005°",
                    "0.0001°",
                ])
        #expect(
            GridLevels.levels(for: .mgrs).map(\.name) == ["grid zones", "100 km", "10 km", "1 km", "100 m", "10 m"])
        #expect(GridLevels.levels(for: .utm).map(\.name) == ["zones", "100 km", "10 km", "1 km", "100 m"])
    }

    @Test func namedLevelsAreChecked() throws {
        let view = TestView.zoom("zoom 4", 4, lon: 0, lat: 45)
        #expect(throws: GridError.unknownLevel(type: .utm, level: 5, count: 5)) { try view.generate(.utm, levels: [5]) }
        do {
            _ = try view.generate(.mgrs, levels: [3])
            Issue.record("1 km lines at zoom 4 were accepted")
        } catch {
            #expect("\(error)" == "mgrs level 3 (1 km) would draw lines 0.1 pixels apart; zoom in or leave it out")
        }
        let grid = try view.generate(.mgrs, levels: [1, 0, 1])
        #expect(grid.levels == [0, 1])
        #expect(Set(grid.lines.map(\.level)) == [0, 1])
        #expect(
            "\(GridError.unknownLevel(type: .utm, level: 5, count: 5))" == "utm has no level 5 (its levels are 0 to 4)")
    }

    /// A line belongs to the coarsest drawn level whose step it is on: 10 km lines are not
    /// drawn again as 1 km lines. When a level is left out, its lines fall to the next one.
    @Test func eachLineIsDrawnOnce() throws {
        let view = TestView.zoom("zoom 13", 13, lon: -77.03, lat: 38.89)
        let grid = try view.generate(.mgrs)
        #expect(grid.levels == [0, 1, 2, 3])
        var seen = Set<String>()
        for line in grid.lines where line.axis == .easting || line.axis == .northing {
            let step = [0, 100_000.0, 10_000, 1_000][line.level]
            #expect(line.value.truncatingRemainder(dividingBy: step) == 0)
            if line.level == 3 { #expect(line.value.truncatingRemainder(dividingBy: 10_000) != 0) }
            seen.insert("\(line.axis)\(line.value)\(line.zone!)\(line.vertices[0].point)")
        }
        let without = try view.generate(.mgrs, levels: [0, 3])
        let tens = without.lines.filter { $0.level == 3 && $0.value.truncatingRemainder(dividingBy: 10_000) == 0 }
        #expect(!tens.isEmpty)
    }
}
