import Foundation
import TestSupport
import Testing

/// `meridian grid --interval` and `--offset`: lines at the user's spacing, where GeoConvert
/// reads their values, and one clear line for a bad distance.
@Suite struct GridIntervalCommandTests {
    let grid = GridCommandTests()

    /// A 2 km UTM grid offset 1 km east over Manhattan: every easting is 1 km past a multiple
    /// of 2 km and every northing a multiple of 2 km; GeoConvert reads the eastings' vertices
    /// on their values.
    @Test func utmInterval() throws {
        let features = try grid.geoJSON([
            "--type", "utm", "--bbox", "-74.05,40.70,-73.90,40.82", "--size", "800x600",
            "--interval", "2000", "--offset", "1000,0",
        ])
        let lines = features.map(GridCommandTests.properties).filter { $0["kind"] as? String == "line" }
        let eastings = lines.filter { $0["axis"] as? String == "easting" }.map { $0["value"] as! Double }
        let northings = lines.filter { $0["axis"] as? String == "northing" }.map { $0["value"] as! Double }
        #expect(Set(eastings).count >= 5 && Set(northings).count >= 5)
        for e in eastings { #expect((e - 1000).truncatingRemainder(dividingBy: 2000) == 0, "easting \(e)") }
        for n in northings { #expect(n.truncatingRemainder(dividingBy: 2000) == 0, "northing \(n)") }
        var input: [String] = []
        var values: [Double] = []
        for f in features where GridCommandTests.properties(f)["axis"] as? String == "easting" {
            for c in (f["geometry"] as! [String: Any])["coordinates"] as! [[Double]] {
                input.append("\(c[1]) \(c[0])")
                values.append(GridCommandTests.properties(f)["value"] as! Double)
            }
        }
        for (text, value) in zip(try GeoConvert.run(["-u", "-z", "18n", "-p", "3"], input), values) {
            let got = Double(text.split(separator: " ")[1])!
            #expect(abs(got - value) < 0.01, "\(text) should have easting \(value)")
        }
    }

    /// A 5' graticule at zoom 10 (minutes written as `5'`): meridians 5' apart.
    @Test func minutesInterval() throws {
        let features = try grid.geoJSON([
            "--type", "latlong", "--bbox", "2.2,48.8,2.5,48.9", "--zoom", "10", "--interval", "5'",
        ])
        let meridians = Set(
            features.map(GridCommandTests.properties).filter { $0["axis"] as? String == "longitude" }.map {
                $0["value"] as! Double
            })
        #expect(meridians.count >= 3)
        for m in meridians {
            let fifths = m * 12
            #expect(abs(fifths - fifths.rounded()) < 1e-9, "a meridian at \(m)°")
        }
    }

    @Test func badIntervals() throws {
        let area = ["--bbox", "-10,40,10,50", "--size", "400x300", "-o", "OUT"]
        let cases: [(flags: [String], message: String)] = [
            (["--type", "utm", "--interval", "2.5"], "--interval 2.5: 2.5 is not a whole number of metres"),
            (
                ["--type", "latlong", "--interval", "7.5\""],
                "--interval 7.5\": \"7.5\\\"\" is not a whole number of seconds of arc"
            ),
            (["--type", "latlong", "--interval", "5x"], "--interval 5x: \"5x\" is not an angle"),
            (
                ["--type", "utm", "--interval", "1,2,3"],
                "--interval 1,2,3: expected one distance or two, [x, y]; got 3"
            ),
            (["--type", "utm", "--offset", "100"], "--offset needs --interval"),
            (["--type", "utm", "--interval", "1000", "--offset", "x"], "--offset x: expected a number, got a string"),
        ]
        for c in cases {
            try grid.expectRejected(["grid"] + c.flags + area, mentions: c.message)
        }
    }
}
