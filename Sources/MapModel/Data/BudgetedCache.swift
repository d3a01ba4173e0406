/// A cache bounded by the estimated bytes of what it holds (see `MemoryCost`), not by the
/// data: past its budget it starts afresh. Starting afresh rather than evicting entry by entry
/// costs nothing per lookup, and the caches it serves are walked in an order (a pyramid goes
/// zoom by zoom, metatile by metatile) where what was used long ago is rarely wanted again.
public struct BudgetedCache<Key: Hashable, Value> {
    /// The most bytes held (an entry larger than the budget is not kept).
    public let budget: Int
    private var entries: [Key: Value] = [:]
    /// The bytes held now: the entries' costs and the table's own slots.
    public private(set) var cost = 0
    /// How many times the cache started afresh: for tests and benchmarks.
    public private(set) var resets = 0

    /// What one entry costs in the table itself besides the value's own heap bytes: its key
    /// and value, and the free slots a hash table keeps (it is at most 3/4 full).
    public static var slotBytes: Int { (MemoryLayout<Key>.stride + MemoryLayout<Value>.stride) * 3 / 2 + 1 }

    public init(budget: Int) {
        self.budget = budget
    }

    public subscript(key: Key) -> Value? { entries[key] }

    public var count: Int { entries.count }

    /// Keeps `value` under `key`; `bytes` is its heap bytes (the slot is added here). Starts
    /// afresh first when it would not fit.
    public mutating func insert(_ value: Value, for key: Key, bytes: Int) {
        let added = bytes + BudgetedCache.slotBytes
        guard added <= budget else { return }
        if entries[key] != nil {
            // The same thing again (the caches here make a key's value from the key alone).
            entries[key] = value
            return
        }
        if cost + added > budget { removeAll() }
        entries[key] = value
        cost += added
    }

    public mutating func removeAll() {
        if !entries.isEmpty { resets += 1 }
        // Not keeping capacity: the point is to give the memory back.
        entries = [:]
        cost = 0
    }
}
