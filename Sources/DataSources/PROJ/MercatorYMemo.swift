import Geodesy

/// Web Mercator y of the latitudes met lately: `WebMercator.y` (a tangent and an inverse
/// hyperbolic sine, some 200 instructions) remembered in a fixed table, one entry per hash of
/// the latitude's bits, the last latitude to land there winning. The answer is the one
/// `WebMercator.y` gives, bit for bit: an entry matches only the very same bits.
///
/// Real data repeats latitudes: GSHHG's coastlines are digitised on a grid (a fifth as many
/// distinct latitudes as vertices), and about two in three of the latitudes a whole-world
/// read projects are found in a table of 65,536 (`WebMercator.y` ran 3.6 million times for
/// some 10 million at zoom 0). The table is 1 MB whatever the data. One per thread, as its
/// projector.
final class MercatorYMemo {
    /// log2 of the entries.
    static let bits = 16
    /// Interleaved key (a latitude's bits) and y, by slot.
    private let table: UnsafeMutablePointer<UInt64>
    /// A key no latitude has: a NaN (latitudes reach here checked finite), so empty entries
    /// match nothing.
    private static let empty = Double.nan.bitPattern

    init() {
        let entries = 1 << MercatorYMemo.bits
        table = .allocate(capacity: 2 * entries)
        for slot in 0..<entries {
            table[2 * slot] = MercatorYMemo.empty
            table[2 * slot + 1] = 0
        }
    }

    deinit { table.deallocate() }

    /// `WebMercator.y(latitude:)`.
    @inline(__always) func y(latitude: Double) -> Double {
        let key = latitude.bitPattern
        // Fibonacci hashing: the top bits of the product mix all of the key's.
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - MercatorYMemo.bits))
        let entry = table + 2 * slot
        if entry[0] == key { return Double(bitPattern: entry[1]) }
        let y = WebMercator.y(latitude: latitude)
        entry[0] = key
        entry[1] = y.bitPattern
        return y
    }
}
