/// A cache bounded by the estimated bytes of what it holds (see `MemoryCost`), not by the
/// data: past its budget it starts afresh. Starting afresh rather than evicting entry by entry
/// costs nothing per lookup, and the caches it serves are walked in an order (a pyramid goes
/// zoom by zoom, metatile by metatile) where what was used long ago is rarely wanted again.
public struct BudgetedCache<Key: Hashable, Value> {
    /// The most bytes held (an entry larger than the budget is not kept).
    public let budget: Int
    /// Each entry with what it was counted at (its bytes and slot), so that one can be dropped.
    private var entries: [Key: (value: Value, cost: Int)] = [:]
    /// The bytes held now: the entries' costs and the table's own slots.
    public private(set) var cost = 0
    /// How many times the cache started afresh: for tests and benchmarks.
    public private(set) var resets = 0

    /// What one entry costs in the table itself besides the value's own heap bytes: its key
    /// and value, and the free slots a hash table keeps (it is at most 3/4 full).
    public static var slotBytes: Int {
        (MemoryLayout<Key>.stride + MemoryLayout<(value: Value, cost: Int)>.stride) * 3 / 2 + 1
    }

    public init(budget: Int) {
        self.budget = budget
    }

    public subscript(key: Key) -> Value? { entries[key]?.value }

    public var count: Int { entries.count }

    /// Keeps `value` under `key`; `bytes` is its heap bytes (the slot is added here). Starts
    /// afresh first when it would not fit.
    public mutating func insert(_ value: Value, for key: Key, bytes: Int) {
        let added = bytes + BudgetedCache.slotBytes
        guard added <= budget else { return }
        if let known = entries[key] {
            // The same thing again (the caches here make a key's value from the key alone).
            entries[key] = (value, known.cost)
            return
        }
        if cost + added > budget { removeAll() }
        entries[key] = (value, added)
        cost += added
    }

    /// Drops the entries for which `drop` is true (a cache that knows which it will not be
    /// asked for again), giving back what they were counted at.
    public mutating func removeAll(where drop: (Value) -> Bool) {
        // The keys first: removing while walking the table would copy it.
        let dropped = entries.compactMap { drop($0.value.value) ? $0.key : nil }
        for key in dropped { cost -= entries.removeValue(forKey: key)?.cost ?? 0 }
    }

    public mutating func removeAll() {
        if !entries.isEmpty { resets += 1 }
        // Not keeping capacity: the point is to give the memory back.
        entries = [:]
        cost = 0
    }
}
