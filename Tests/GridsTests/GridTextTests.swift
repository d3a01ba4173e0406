import Foundation
import Geodesy
import Testing

@testable import Grids

/// Label strings, exactly as docs/grids.md gives them.
@Suite struct GridTextTests {
    @Test func latitudeLongitude() {
        #expect(GridText.latLong(45.5, axis: .latitude, format: .decimalDegrees) == "45.5°N")
        #expect(GridText.latLong(-75, axis: .longitude, format: .decimalDegrees) == "75°W")
        #expect(GridText.latLong(-0.0005, axis: .latitude, format: .decimalDegrees) == "0.0005°S")
        #expect(GridText.latLong(45.5, axis: .latitude, format: .degreesMinutesSeconds) == "45°30'N")
        #expect(
            GridText.latLong(-(75 + 15.0 / 60 + 30.0 / 3600), axis: .longitude, format: .degreesMinutesSeconds)
                == "75°15'30\"W")
        #expect(GridText.latLong(10 + 5.0 / 3600, axis: .latitude, format: .degreesMinutesSeconds) == "10°00'05\"N")
        #expect(GridText.latLong(0, axis: .latitude, format: .degreesMinutesSeconds) == "0°")
        #expect(GridText.latLong(180, axis: .longitude, format: .degreesMinutesSeconds) == "180°")
        #expect(GridText.latLong(-180, axis: .longitude, format: .decimalDegrees) == "180°")
    }

    @Test func utmAndMGRS() {
        #expect(GridText.utm(323_000, axis: .easting) == "323000mE")
        #expect(GridText.utm(4_306_000, axis: .northing) == "4306000mN")
        #expect(GridText.mgrs(323_000, step: 1_000, unit: .kilometersMeters) == "23km")
        #expect(GridText.mgrs(4_306_000, step: 1_000, unit: .kilometersMeters) == "06km")
        #expect(GridText.mgrs(330_000, step: 10_000, unit: .kilometersMeters) == "30km")
        #expect(GridText.mgrs(323_400, step: 100, unit: .kilometersMeters) == "23400m")
        #expect(GridText.mgrs(323_410, step: 10, unit: .kilometersMeters) == "23410m")
        #expect(GridText.mgrs(323_000, step: 1_000, unit: .meters) == "23000m")
        #expect(GridText.mgrs(4_306_000, step: 1_000, unit: .meters) == "06000m")
        #expect(GridText.utmZone(18, north: true) == "18N")
    }

    /// Every graticule label, at every level, names its line's value exactly: read back with
    /// Geodesy's parser it is the value, and DMS labels carry no fractions of a second.
    @Test(arguments: LatLongLabelFormat.allCases)
    func graticuleLabelsAreExact(_ format: LatLongLabelFormat) throws {
        let steps = GridLevels.graticuleSteps(format)
        let units = Double(GridLevels.units(for: format))
        for (level, step) in steps.enumerated() {
            // A view where this level is just drawn, away from round values.
            let degrees = Double(step) / units
            let resolution = degrees * GridLevels.metresPerDegree / 60
            let view = TestView.at(
                "level \(level)", resolution: resolution, lon: -71.37, lat: 42.41, width: 800, height: 800)
            var request = GridRequest(type: .latlong)
            request.labelFormat = format
            request.minSpacing = TestView.minSpacing
            let grid = try Grid.generate(request, projection: view.projection, area: view.area)
            #expect(grid.levels.last == level)
            let lines = grid.lines.filter { $0.level == level }
            #expect(!lines.isEmpty)
            for line in lines {
                let text = line.label!
                #expect(!(format == .degreesMinutesSeconds && text.contains(".")), "\(text)")
                let parsed = try AngleParser.parse(text)
                // 180°W and 180°E are the same meridian, labelled 180°.
                let difference = abs(parsed.degrees - line.value).truncatingRemainder(dividingBy: 360)
                #expect(difference < 1e-9, "\(text) reads \(parsed.degrees), the line is at \(line.value)")
                #expect(
                    abs((line.value * units).rounded() - line.value * units) < 1e-6,
                    "\(line.value) is not a whole number of steps")
            }
        }
    }
}
