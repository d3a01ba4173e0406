import Testing

@testable import MapModel

/// `Properties` keeps its entries sorted by key as a stable sort leaves them; entries that
/// come sorted (a table's columns, read feature after feature) are kept as given, not copied.
@Suite struct PropertiesTests {
    @Test func sortedEntriesAreKeptAsGiven() {
        var entries: [(key: String, value: PropertyValue)] = [
            ("name", .string("Oslo")), ("population", .number(709_037)), ("é", .bool(true)),
        ]
        entries.reserveCapacity(8)
        let properties = Properties(entries)
        #expect(properties.entries.map(\.key) == ["name", "population", "é"])
        // The same storage: no array made per feature.
        let given = entries.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let kept = properties.entries.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        #expect(given == kept)
    }

    @Test func otherEntriesAreSortedStably() {
        // Every order of four entries, two of them with the same key: the result is the
        // stable sort of the input, whatever the order.
        let items: [(key: String, value: PropertyValue)] = [
            ("b", .number(1)), ("a", .number(2)), ("b", .number(3)), ("c", .null),
        ]
        func orders(_ rest: [Int]) -> [[Int]] {
            rest.isEmpty ? [[]] : rest.flatMap { i in orders(rest.filter { $0 != i }).map { [i] + $0 } }
        }
        for order in orders([0, 1, 2, 3]) {
            let given = order.map { items[$0] }
            var expected: [(key: String, value: PropertyValue)] = []
            for key in ["a", "b", "c"] { expected += given.filter { $0.key == key } }
            let made = Properties(given).entries
            #expect(made.map(\.key) == expected.map(\.key), "\(order)")
            #expect(made.map(\.value) == expected.map(\.value), "\(order)")
            #expect(Properties(given)["b"] == expected[1].value, "\(order)")
        }
    }
}
