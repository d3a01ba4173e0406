import Foundation
import Geodesy
import Testing

@testable import DataSources

/// The remembered y must be `WebMercator.y`'s, bit for bit, however latitudes collide in the
/// table and come back.
@Suite struct MercatorYMemoTests {
    @Test func answersAreWebMercatorsBitForBit() {
        var seed: UInt64 = 15
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        // Four times the table's entries, so that slots are shared and overwritten; on a
        // micro-degree grid, as GSHHG's, so that latitudes repeat; and the edge cases.
        var latitudes = (0..<(4 << MercatorYMemo.bits)).map { _ in ((next() * 180 - 90) * 1e6).rounded() / 1e6 }
        latitudes += [
            0, -0.0, 90, -90, 85.0511287798066, -85.0511287798066, 85.06, -89.999999, .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude,
        ]
        let memo = MercatorYMemo()
        var repeats = 0
        for _ in 0..<3 {
            for (i, latitude) in latitudes.enumerated() {
                // Now and then a latitude met a moment ago, as along a coastline.
                let asked = i % 3 == 0 && i > 0 ? latitudes[i - 1] : latitude
                if asked != latitude { repeats += 1 }
                #expect(memo.y(latitude: asked).bitPattern == WebMercator.y(latitude: asked).bitPattern, "\(asked)")
            }
        }
        #expect(repeats > 0)
    }

    @Test func projectorGivesTheSameMetresAsGeodesy() throws {
        let projector = try MercatorProjector(try SourceCRS("EPSG:4326"))
        #expect(projector.isLongitudeLatitude)
        var coordinates: [Double] = []
        for i in 0..<100_000 {
            let lon = Double((i * 7919) % 360_000) / 1000 - 180
            let lat = Double((i * 104_729) % 180_000) / 1000 - 90
            coordinates += [lon, lat]
        }
        let original = coordinates
        try projector.toWebMercator(&coordinates)
        for i in 0..<original.count / 2 {
            #expect(coordinates[2 * i].bitPattern == WebMercator.x(longitude: original[2 * i]).bitPattern)
            #expect(coordinates[2 * i + 1].bitPattern == WebMercator.y(latitude: original[2 * i + 1]).bitPattern)
        }
    }
}
