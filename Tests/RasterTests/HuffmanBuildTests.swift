import TestSupport
import Testing

@testable import Raster

/// `HuffmanCode.build`, which works over the used symbols only (a radix sort of their
/// frequencies, codes assigned to them alone), against the algorithm written out with arrays
/// and the library's sort: the same lengths exactly, not merely lengths as good, since
/// `RunDeflate`'s streams must stay byte for byte what they were.
@Suite struct HuffmanBuildTests {
    /// The lengths `build` promises, the long way: leaves sorted by (frequency, symbol), two
    /// queues (a leaf goes first when it weighs no more than the inner node), depths from the
    /// root; frequencies halved (rounding up) while the tree is deeper than `limit`.
    static func referenceLengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var current = frequencies
        while true {
            var lengths = [UInt8](repeating: 0, count: frequencies.count)
            let leaves = current.indices.filter { current[$0] > 0 }.sorted { (current[$0], $0) < (current[$1], $1) }
            if leaves.count == 1 { lengths[leaves[0]] = 1 }
            guard leaves.count > 1 else { return lengths }
            var weight = leaves.map { current[$0] }
            var parent = [Int](repeating: 0, count: 2 * leaves.count - 1)
            var leaf = 0
            var inner = leaves.count
            func lightest() -> Int {
                if leaf < leaves.count && (inner >= weight.count || weight[leaf] <= weight[inner]) {
                    leaf += 1
                    return leaf - 1
                }
                inner += 1
                return inner - 1
            }
            while weight.count < 2 * leaves.count - 1 {
                let a = lightest()
                let b = lightest()
                parent[a] = weight.count
                parent[b] = weight.count
                weight.append(weight[a] + weight[b])
            }
            var depth = [Int](repeating: 0, count: weight.count)
            for k in stride(from: weight.count - 2, through: 0, by: -1) { depth[k] = depth[parent[k]] + 1 }
            for (k, symbol) in leaves.enumerated() { lengths[symbol] = UInt8(depth[k]) }
            if depth.max()! <= limit { return lengths }
            current = current.map { ($0 + 1) / 2 }
        }
    }

    /// Alphabets of `RunDeflate`'s sizes with few to all symbols used, small frequencies with
    /// many ties (one radix pass), large ones (two to four passes), equal ones, and skewed ones
    /// that need the limit.
    @Test func lengthsAndCodesAreTheReference() {
        var random = Xorshift(state: 29)
        for trial in 0..<400 {
            let size = [286, 30, 19][trial % 3]
            let used = 1 + Int(random.next() % UInt64(size))
            let ceiling: UInt64 = [4, 200, 70_000, 1 << 31][trial / 3 % 4]
            var frequencies = [Int](repeating: 0, count: size)
            for _ in 0..<used {
                frequencies[Int(random.next() % UInt64(size))] = 1 + Int(random.next() % ceiling)
            }
            if trial % 17 == 0 {
                // A Fibonacci run: a tree one level deeper per symbol, past any limit.
                var (a, b) = (1, 1)
                for s in 0..<min(size, 40) {
                    frequencies[s] = a
                    (a, b) = (b, a + b)
                }
            }
            let limit = size == 19 ? 7 : 15
            let expected = Self.referenceLengths(frequencies, limit: limit)
            let narrow = frequencies.map { UInt32($0) }
            var lengths = [UInt8](repeating: 9, count: size)
            var codes = [HuffmanCode.Code](repeating: HuffmanCode.Code(bits: 0, count: 0), count: size)
            let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: HuffmanCode.scratchWords(size))
            defer { scratch.deallocate() }
            narrow.withUnsafeBufferPointer { f in
                lengths.withUnsafeMutableBufferPointer { l in
                    codes.withUnsafeMutableBufferPointer { c in
                        HuffmanCode.build(
                            f.baseAddress!, count: size, limit: limit, lengths: l.baseAddress!, codes: c.baseAddress!,
                            scratch: scratch)
                    }
                }
            }
            #expect(lengths == expected, "trial \(trial)")
            #expect(HuffmanCode.lengths(frequencies, limit: limit) == expected, "trial \(trial)")
            var canonical = [HuffmanCode.Code](repeating: HuffmanCode.Code(bits: 0, count: 0), count: size)
            expected.withUnsafeBufferPointer { l in
                canonical.withUnsafeMutableBufferPointer {
                    HuffmanCode.canonical(l.baseAddress!, count: size, into: $0.baseAddress!)
                }
            }
            for s in 0..<size where frequencies[s] > 0 {
                #expect(
                    codes[s].bits == canonical[s].bits && codes[s].count == canonical[s].count,
                    "trial \(trial) symbol \(s)"
                )
            }
        }
    }

    /// The radix sort, one to four passes: ascending, as the library sorts.
    @Test func sortSortsKeysInSymbolOrder() {
        var random = Xorshift(state: 31)
        for trial in 0..<200 {
            let count = 1 + Int(random.next() % 286)
            let ceiling: UInt64 = [3, 255, 256, 65_536, 1 << 32][trial % 5]
            // Keys come in ascending symbol order, as `build` makes them.
            var keys = (0..<count).map { (1 + random.next() % ceiling) << 16 | UInt64($0) }
            let expected = keys.sorted()
            let spare = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
            defer { spare.deallocate() }
            keys.withUnsafeMutableBufferPointer { HuffmanCode.sort($0.baseAddress!, count: count, spare: spare) }
            #expect(keys == expected, "trial \(trial)")
        }
    }
}
