import Foundation
import Geodesy

/// Conversions per second on one core for the calls grids make per vertex: UTM forward
/// (standard zone) and inverse, MGRS encode (1 m, as a String), and the raw projections.
enum GeodesyBench {
    static func run() {
        // Fixed pseudo-random positions between 80°S and 84°N (a simple LCG: same every run).
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let positions = (0..<100_000).map { _ in
            GeoPosition(latitude: -80 + 164 * next(), longitude: -180 + 360 * next())
        }
        let utm = positions.map { try! UTM.forward($0) }

        measure("utm-forward") { i in
            let c = try! UTM.forward(positions[i % positions.count])
            return c.easting
        }
        measure("utm-inverse") { i in
            let p = try! UTM.reverse(utm[i % utm.count])
            return p.latitude
        }
        measure("mgrs-encode") { i in
            let s = try! MGRS.encode(positions[i % positions.count], digits: 5)
            return Double(s.utf8.count)
        }
        measure("tm-forward") { i in
            let p = positions[i % positions.count]
            return TransverseMercator.utm.forward(
                centralMeridian: 3, latitude: p.latitude,
                longitude: 3 + p.longitude / 30
            ).x
        }
        measure("webmercator-forward") { i in
            let p = positions[i % positions.count]
            return WebMercator.forward(latitude: p.latitude, longitude: p.longitude).y
        }
    }

    /// Runs `body` in batches for about a second and prints the rate.
    private static func measure(_ name: String, _ body: (Int) -> Double) {
        var sink = 0.0
        for i in 0..<10_000 { sink += body(i) }  // warm up
        let clock = ContinuousClock()
        var count = 0
        let start = clock.now
        var elapsed = Duration.zero
        while elapsed < .seconds(1) {
            for i in count..<(count + 50_000) { sink += body(i) }
            count += 50_000
            elapsed = clock.now - start
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = Double(count) / seconds
        print(
            "geodesy \(name.padding(toLength: 20, withPad: " ", startingAt: 0))"
                + String(format: "%6.2f M conversions/s  (%.0f ns each)", rate / 1e6, 1e9 / rate)
                + (sink.isNaN ? " nan" : ""))
    }
}
