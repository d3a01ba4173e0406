import Geodesy
import MapModel
import Testing

/// Caches bounded by estimated bytes (issues 13 and 18): memory set by the budget, whatever
/// the data.
@Suite struct BudgetedCacheTests {
    /// A line feature of `vertices` vertices with a name of `nameLength` characters.
    static func feature(_ index: Int, vertices: Int, nameLength: Int = 20) -> Feature {
        var coordinates: [Double] = []
        for v in 0..<vertices { coordinates += [Double(v), Double(v % 7)] }
        return Feature(
            index: index, geometries: [Geometry(kind: .line, coordinates: coordinates, partStarts: [0, vertices])],
            properties: Properties([("name", .string(String(repeating: "x", count: nameLength)))]))
    }

    /// The estimate covers at least the payload: 16 bytes a vertex and the text.
    @Test func estimateCoversThePayload() {
        for (vertices, name) in [(1, 16), (2, 100), (1000, 20), (100_000, 3)] {
            let f = Self.feature(0, vertices: vertices, nameLength: name)
            #expect(f.estimatedBytes >= 16 * vertices + (name > 15 ? name : 0))
        }
        // Points with attributes are not free (a layer of 300,000 places).
        #expect(Self.feature(0, vertices: 1).estimatedBytes >= 150)
    }

    /// Growing input, growing features: the bytes held never pass the budget, the latest
    /// entry is always there, and the cache does start afresh.
    @Test func staysWithinItsBudgetOnGrowingInput() {
        var cache = BudgetedCache<Int, Feature>(budget: 1 << 20)
        var payload = 0
        for i in 0..<20_000 {
            let f = Self.feature(i, vertices: 1 + i % 300)
            payload += f.estimatedBytes
            cache.insert(f, for: i, bytes: f.estimatedBytes)
            #expect(cache.cost <= cache.budget)
            #expect(cache[i]?.index == i)
        }
        #expect(payload > 8 * cache.budget)
        #expect(cache.resets >= 8)
        // An entry larger than the whole budget is not kept.
        let huge = Self.feature(-1, vertices: 100_000)
        cache.insert(huge, for: -1, bytes: huge.estimatedBytes)
        #expect(cache[-1] == nil)
        #expect(cache.cost <= cache.budget)
    }

    /// Entries dropped one by one give back what they were counted at: the cost is that of the
    /// entries left, as if only they had been inserted.
    @Test func droppedEntriesGiveBackTheirCost() {
        var cache = BudgetedCache<Int, Feature>(budget: 1 << 20)
        var kept = BudgetedCache<Int, Feature>(budget: 1 << 20)
        for i in 0..<200 {
            let f = Self.feature(i, vertices: 1 + i % 30)
            cache.insert(f, for: i, bytes: f.estimatedBytes)
            if i % 3 == 0 { kept.insert(f, for: i, bytes: f.estimatedBytes) }
        }
        cache.removeAll { $0.index % 3 != 0 }
        #expect(cache.count == kept.count)
        #expect(cache.cost == kept.cost)
        #expect(cache[3]?.index == 3)
        #expect(cache[4] == nil)
    }
}
