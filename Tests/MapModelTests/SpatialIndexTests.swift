import Geodesy
import Testing

@testable import MapModel

@Suite struct SpatialIndexTests {
    /// A deterministic pseudo-random sequence (SplitMix64), so failures reproduce.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    @Test func searchMatchesBruteForce() {
        var random = Random(state: 42)
        for count in [0, 1, 15, 16, 17, 300, 5000] {
            let boxes = (0..<count).map { _ -> Rect in
                let x = random.next() * 1000
                let y = random.next() * 1000
                return Rect(minX: x, minY: y, maxX: x + random.next() * 30, maxY: y + random.next() * 30)
            }
            let index = SpatialIndex(boxes)
            for _ in 0..<200 {
                let x = random.next() * 1000
                let y = random.next() * 1000
                let query = Rect(minX: x, minY: y, maxX: x + random.next() * 200, maxY: y + random.next() * 200)
                let expected = boxes.indices.filter { boxes[$0].intersects(query) }
                #expect(index.search(query) == expected)
            }
        }
    }

    @Test func emptyBoxesAreNeverFound() {
        let index = SpatialIndex([Rect.empty, Rect(minX: 0, minY: 0, maxX: 1, maxY: 1), Rect.empty])
        #expect(index.search(Rect(minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9)) == [1])
    }
}
