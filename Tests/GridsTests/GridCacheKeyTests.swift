import Geodesy
import Testing

@testable import Grids

/// `GridCache`'s chunk and stop keys hash a few of their fields (the line folded into one
/// word); equality still compares them all, so keys that differ in any one field are kept
/// apart, and the same key finds what was kept under it.
@Suite struct GridCacheKeyTests {
    @Test func chunksDifferingInAnyFieldAreKeptApart() {
        let cache = GridCache()
        // The base key with one field changed.
        func key(
            zone: Int = 18, axis: GridAxis = .easting, value: Double = 584_000, from: Double = 4_500_000,
            to: Double = 4_510_000, westOf180: Bool = false, scale: Double = 9.55
        ) -> GridCache.ChunkKey {
            GridCache.ChunkKey(
                zone: zone, axis: axis, value: value, from: from, to: to, westOf180: westOf180, scale: scale)
        }
        let base = key()
        let others = [
            key(zone: 19), key(axis: .northing), key(value: 585_000), key(from: 4_490_000), key(to: 4_505_000),
            key(westOf180: true), key(scale: 4.77),
        ]
        func vertex(_ k: Int) -> [GridVertex] {
            [GridVertex(point: PlanePoint(x: Double(k), y: 0), position: GeoPosition(latitude: 0, longitude: 0))]
        }
        for (k, key) in ([base] + others).enumerated() {
            #expect(cache.chunk(key) { vertex(k) }[0].point.x == Double(k))
        }
        for (k, key) in ([base] + others).enumerated() {
            #expect(cache.chunk(key) { vertex(-1) }[0].point.x == Double(k), "key \(k) was not found")
        }
    }

    @Test func stopsDifferingInAnyFieldAreKeptApart() {
        let cache = GridCache()
        let keys = [
            GridCache.StopKey(zone: 18, axis: .easting, value: 584_000, t: 4_505_000),
            GridCache.StopKey(zone: 17, axis: .easting, value: 584_000, t: 4_505_000),
            GridCache.StopKey(zone: 18, axis: .northing, value: 584_000, t: 4_505_000),
            GridCache.StopKey(zone: 18, axis: .easting, value: 583_000, t: 4_505_000),
            GridCache.StopKey(zone: 18, axis: .easting, value: 584_000, t: 4_506_000),
        ]
        for (k, key) in keys.enumerated() {
            #expect(cache.stop(key) { GeoPosition(latitude: Double(k), longitude: 0) }.latitude == Double(k))
        }
        #expect(cache.stopsMade == keys.count)
        for (k, key) in keys.enumerated() {
            #expect(cache.stop(key) { GeoPosition(latitude: -1, longitude: 0) }.latitude == Double(k))
        }
        #expect(cache.stopsMade == keys.count)
    }

    /// Every axis has its own code: two axes sharing one would still be told apart by
    /// equality, but would crowd the same buckets.
    @Test func axesHaveDistinctCodes() {
        #expect(Set(GridAxis.allCases.map(\.hashCode)).count == GridAxis.allCases.count)
    }
}
