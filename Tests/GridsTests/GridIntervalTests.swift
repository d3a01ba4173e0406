import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// Lines at the user's interval and offset: UTM lines where GeoConvert puts the values
/// `offset + k·interval` (none skipped, none extra), and a 5' graticule whose meridians are
/// 5' apart in pixels by the Web Mercator formula.
@Suite struct GridIntervalTests {
    /// A 2 km grid offset by 500 m over Manhattan at 1:50,000. Every vertex of every easting
    /// and northing line lies, by GeoConvert, on its line's value to 1 cm, and every value is
    /// 500 m past a multiple of 2 km; where the lines cross the view's middle row (eastings)
    /// and column (northings), GeoConvert reads one interval after another, to the quarter
    /// pixel lines are densified to.
    @Test func utmLinesLieOnTheIntervalFromTheOffset() throws {
        let view = TestView.scale("Manhattan 1:50,000", 50_000, lon: -73.97, lat: 40.77)
        var request = GridRequest(type: .utm)
        request.minSpacing = TestView.minSpacing
        request.interval = GridInterval(x: 2000, y: 2000, offsetX: 500, offsetY: 500)
        let grid = try Grid.generate(request, projection: view.projection, area: view.area)
        func onInterval(_ v: Double) -> Bool {
            let r = (v - 500).truncatingRemainder(dividingBy: 2000)
            return min(abs(r), 2000 - abs(r)) < 0.01
        }
        let lines = grid.lines.filter { $0.axis == .easting || $0.axis == .northing }
        let vertices = lines.flatMap { line in line.vertices.map { (line, $0.position) } }
        let converted = try GeoConvert.run(
            ["-u", "-z", "18n", "-p", "4"],
            vertices.map { GeoConvert.text(latitude: $0.1.latitude, longitude: $0.1.longitude) })
        for ((line, _), text) in zip(vertices, converted) {
            #expect(onInterval(line.value), "\(line.axis) \(line.value) is off the interval")
            let parts = text.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2, "GeoConvert said '\(text)'")
            let got = line.axis == .easting ? parts[0] : parts[1]
            #expect(abs(got - line.value) < 0.01, "\(line.axis) \(line.value) has a vertex at \(got)")
        }

        let quarterPixel = view.projection.resolution / 4
        let c = view.area.center
        let families: [(GridAxis, [GridCrossing])] = [
            (.easting, grid.crossings(horizontalAt: c.y, from: view.area.minX, to: view.area.maxX)),
            (.northing, grid.crossings(verticalAt: c.x, from: view.area.minY, to: view.area.maxY)),
        ]
        for (axis, crossings) in families {
            let on = crossings.filter { grid.lines[$0.lineIndex].axis == axis }
            // 1024 px at 1:50,000 is about 10.8 km on the ground at 40.8°N: 5 or 6 lines.
            #expect(on.count >= 4, "\(axis): \(on.count) lines")
            var values: [Double] = []
            for crossing in on {
                let p = view.projection.unproject(crossing.point)
                let utm = try GeoConvert.utm(latitude: p.latitude, longitude: p.longitude, zone: "18n")
                values.append(axis == .easting ? utm.easting : utm.northing)
            }
            values.sort()
            for (a, b) in zip(values, values.dropFirst()) {
                #expect(abs(b - a - 2000) < 2 * quarterPixel, "\(axis): lines at \(a) and \(b) m")
            }
        }
    }

    /// A 5' graticule at zoom 11 (meridians 121 px apart): consecutive meridians cross the
    /// view's middle row 5/60 of a degree apart, 256·2^11/360 pixels a degree.
    @Test func graticuleMeridiansAreTheIntervalApartInPixels() throws {
        let view = TestView.zoom("zoom 11", 11, lon: 2.35, lat: 48.85)
        var request = GridRequest(type: .latlong)
        request.minSpacing = TestView.minSpacing
        request.interval = GridInterval(x: 5 / 60.0, y: 5 / 60.0)
        let grid = try Grid.generate(request, projection: view.projection, area: view.area)
        let c = view.area.center
        let xs = grid.crossings(horizontalAt: c.y, from: view.area.minX, to: view.area.maxX)
            .filter { grid.lines[$0.lineIndex].axis == .longitude }.map(\.point.x).sorted()
        let expected: Double = 5 / 60.0 * 256 * 2048 / 360
        #expect(xs.count >= 7, "\(xs.count) meridians")
        for (a, b) in zip(xs, xs.dropFirst()) {
            #expect(abs(b - a - expected) < 1e-6, "meridians \(b - a) px apart, not \(expected)")
        }
        // Every meridian's value is a whole number of 5' (300 arc seconds).
        for line in grid.lines where line.axis == .longitude {
            let seconds = line.value * 3600
            #expect(abs(seconds / 300 - (seconds / 300).rounded()) < 1e-9, "meridian \(line.value)")
        }
    }

    /// An interval off the format's units, or so close its lines would touch, is refused.
    @Test func badIntervalsAreRefused() {
        let view = TestView.zoom("zoom 11", 11, lon: 2.35, lat: 48.85)
        var request = GridRequest(type: .utm)
        request.interval = GridInterval(x: 2000.5, y: 2000)
        #expect(throws: GridError.self) { try Grid.generate(request, projection: view.projection, area: view.area) }
        request.interval = GridInterval(x: 1, y: 1)
        #expect(throws: GridError.self) { try Grid.generate(request, projection: view.projection, area: view.area) }
    }
}
