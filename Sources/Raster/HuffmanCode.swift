/// Deflate's Huffman codes (RFC 1951, 3.2.2): code lengths of at most a limit for symbol
/// frequencies, and the canonical codes of those lengths, for `RunDeflate`'s one block.
///
/// Why over raw memory: a flat tile's block is cheap to scan, and building its three codes
/// with arrays, a stable sort of symbols by a tuple-comparing closure and a bit-by-bit
/// reversal cost about as much again (some 130,000 instructions a tile, 84 M over the New
/// York MGRS pyramid's 653 flat palette tiles). The lengths are the same: leaves in order of
/// (frequency, symbol), merged with the same two queues.
enum HuffmanCode {
    /// A code (bits reversed, as deflate writes codes from their first bit), or extra bits:
    /// `count` bits.
    struct Code {
        var bits: UInt32
        var count: UInt8
    }

    /// Code lengths of at most `limit` bits for `frequencies`, 0 for unused symbols; a single
    /// symbol gets 1 bit. When the tree is too deep the frequencies are halved (rounding up,
    /// so used symbols stay used) until it is not: all equal, the tree is balanced, and
    /// 2^limit exceeds the alphabets' sizes. Frequencies are below 2^32.
    static func lengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        precondition(frequencies.allSatisfy { (0..<(1 << 32)).contains($0) })
        let narrow = frequencies.map { UInt32(truncatingIfNeeded: $0) }
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: scratchWords(frequencies.count))
        defer { scratch.deallocate() }
        narrow.withUnsafeBufferPointer { f in
            lengths.withUnsafeMutableBufferPointer {
                build(
                    f.baseAddress!, count: f.count, limit: limit, lengths: $0.baseAddress!, codes: nil, scratch: scratch
                )
            }
        }
        return lengths
    }

    /// Words of scratch `build` needs for `count` symbols.
    static func scratchWords(_ count: Int) -> Int { 7 &* count }

    /// `lengths(_:limit:)` of `count` frequencies into `lengths`, and, when `codes` is given,
    /// the canonical codes of the symbols used (`canonical`'s; unused symbols' codes are not
    /// written: nothing reads them). `scratch` holds `scratchWords(count)` words (handed in:
    /// as a temporary allocation it went to the heap, past 1 KB, twice a tile).
    ///
    /// The work is over the used symbols, not the alphabet: a grid tile's literal alphabet
    /// has 286 symbols of which some 70 to 190 are used, and sorting those with the
    /// library's sort, scanning all 286 for the longest length and again twice for the codes
    /// cost some 30,000 instructions a tile (of about 150,000 in all for a grid tile's block).
    static func build(
        _ frequencies: UnsafePointer<UInt32>, count: Int, limit: Int, lengths: UnsafeMutablePointer<UInt8>,
        codes: UnsafeMutablePointer<Code>?, scratch: UnsafeMutablePointer<UInt64>
    ) {
        guard count > 0 else { return }
        lengths.update(repeating: 0, count: count)
        // Words: the used symbols' keys and their order kept (`count` each), node weights and
        // parents (`2 * count` each), the halved frequencies (`count`).
        let keys = scratch
        let spare = keys + count
        let weights = spare + count
        let parents = weights + 2 * count
        // The used symbols in ascending order (what the codes are assigned in), as
        // (frequency << 16 | symbol).
        var n = 0
        for s in 0..<count where frequencies[s] > 0 {
            keys[n] = UInt64(frequencies[s]) << 16 | UInt64(s)
            n &+= 1
        }
        guard n > 1 else {
            if n == 1 { lengths[Int(keys[0] & 0xFFFF)] = 1 }
            codes.map { assign(keys, count: n, lengths: lengths, into: $0) }
            return
        }
        // `spare` keeps the symbols' order for the codes while `keys` is sorted.
        spare.update(from: keys, count: n)
        var longest = treeLengths(keys, count: n, lengths: lengths, spare: weights, weights: weights, parents: parents)
        if longest > limit {
            // Too deep (rare): halve the frequencies until it fits.
            let halved = parents + 2 * count
            for k in 0..<n { halved[k] = spare[k] >> 16 }
            repeat {
                for k in 0..<n {
                    halved[k] = (halved[k] &+ 1) / 2
                    keys[k] = UInt64(halved[k]) << 16 | spare[k] & 0xFFFF
                }
                longest = treeLengths(
                    keys, count: n, lengths: lengths, spare: weights, weights: weights, parents: parents)
            } while longest > limit
        }
        codes.map { assign(spare, count: n, lengths: lengths, into: $0) }
    }

    /// The depths of the Huffman tree of the `count` (at least 2) used symbols' `keys` (in
    /// ascending symbol order; sorted here) as their `lengths`; the deepest. Leaves in order
    /// of (frequency, symbol), two queues (leaves, then inner nodes in the order they are
    /// made; a leaf goes first when it weighs no more than the inner node). `spare`,
    /// `weights` and `parents` hold `count`, `2 * count` and `2 * count` words (`spare` may
    /// be `weights`: the sort is done before the weights are written).
    private static func treeLengths(
        _ keys: UnsafeMutablePointer<UInt64>, count n: Int, lengths: UnsafeMutablePointer<UInt8>,
        spare: UnsafeMutablePointer<UInt64>, weights weight: UnsafeMutablePointer<UInt64>,
        parents parent: UnsafeMutablePointer<UInt64>
    ) -> Int {
        sort(keys, count: n, spare: spare)
        for k in 0..<n { weight[k] = keys[k] >> 16 }
        var leaf = 0
        var inner = n
        var next = n
        @inline(__always) func lightest() -> Int {
            if leaf < n && (inner >= next || weight[leaf] <= weight[inner]) {
                leaf &+= 1
                return leaf &- 1
            }
            inner &+= 1
            return inner &- 1
        }
        let nodes = 2 &* n &- 1
        while next < nodes {
            let a = lightest()
            let b = lightest()
            weight[next] = weight[a] &+ weight[b]
            parent[a] = UInt64(truncatingIfNeeded: next)
            parent[b] = UInt64(truncatingIfNeeded: next)
            next &+= 1
        }
        // Parents come after their children: depths from the root down, in the weights'
        // words (no longer needed).
        let depth = weight
        depth[nodes &- 1] = 0
        var k = nodes &- 2
        while k >= 0 {
            depth[k] = depth[Int(truncatingIfNeeded: parent[k])] &+ 1
            k &-= 1
        }
        var longest: UInt64 = 0
        for k in 0..<n {
            lengths[Int(truncatingIfNeeded: keys[k] & 0xFFFF)] = UInt8(truncatingIfNeeded: depth[k])
            if depth[k] > longest { longest = depth[k] }
        }
        return Int(longest)
    }

    /// Ascending. The keys are distinct and come in ascending symbol order, so sorting them
    /// by frequency alone with a stable sort sorts them: insertion for the few symbols of a
    /// flat tile, beyond that a radix sort of the frequencies 8 bits a pass (one or two
    /// passes for a tile's frequencies; the library's sort cost some 15,000 instructions for
    /// a grid tile's 100 literal symbols, the radix sort about 3,000). `spare` holds `count`
    /// words.
    static func sort(_ keys: UnsafeMutablePointer<UInt64>, count: Int, spare: UnsafeMutablePointer<UInt64>) {
        guard count > 32 else {
            for i in 1..<count {
                let key = keys[i]
                var j = i
                while j > 0 && keys[j &- 1] > key {
                    keys[j] = keys[j &- 1]
                    j &-= 1
                }
                keys[j] = key
            }
            return
        }
        var largest: UInt64 = 0
        for k in 0..<count { largest |= keys[k] }
        var from = keys
        var to = spare
        var shift: UInt64 = 16
        // 32-bit counts (the keys are symbols of an alphabet): 1 KB, kept on the stack.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 256) { buckets in
            let starts = buckets.baseAddress!
            while largest >> shift != 0 {
                starts.update(repeating: 0, count: 256)
                for k in 0..<count { starts[Int(truncatingIfNeeded: from[k] >> shift & 0xFF)] &+= 1 }
                var sum: UInt32 = 0
                for b in 0..<256 {
                    let c = starts[b]
                    starts[b] = sum
                    sum &+= c
                }
                for k in 0..<count {
                    let key = from[k]
                    let b = Int(truncatingIfNeeded: key >> shift & 0xFF)
                    to[Int(starts[b])] = key
                    starts[b] &+= 1
                }
                swap(&from, &to)
                shift &+= 8
            }
        }
        if from != keys { keys.update(from: from, count: count) }
    }

    /// The canonical codes (`canonical`'s) of the `count` used symbols, whose keys (symbol in
    /// the low 16 bits) are in ascending symbol order.
    private static func assign(
        _ keys: UnsafeMutablePointer<UInt64>, count: Int, lengths: UnsafeMutablePointer<UInt8>,
        into codes: UnsafeMutablePointer<Code>
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { next in
            let next = next.baseAddress!
            next.initialize(repeating: 0, count: 16)
            for k in 0..<count { next[Int(lengths[Int(truncatingIfNeeded: keys[k] & 0xFFFF)])] &+= 1 }
            firstCodes(next)
            let byteReversed = Self.byteReversed
            for k in 0..<count {
                let s = Int(truncatingIfNeeded: keys[k] & 0xFFFF)
                let l = Int(lengths[s])
                codes[s] = Code(bits: reversed(next[l], l, byteReversed), count: UInt8(l))
                next[l] &+= 1
            }
        }
    }

    /// Turns counts of codes by length (`next[1...15]`) into the first code of each length.
    @inline(__always)
    private static func firstCodes(_ next: UnsafeMutablePointer<UInt32>) {
        var code: UInt32 = 0
        var previous: UInt32 = 0
        for bits in 1..<16 {
            code = (code &+ previous) << 1
            previous = next[bits]
            next[bits] = code
        }
    }

    /// Deflate's canonical codes for `count` lengths (at most 15 bits), reversed for writing.
    static func canonical(_ lengths: UnsafePointer<UInt8>, count: Int, into codes: UnsafeMutablePointer<Code>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { next in
            let next = next.baseAddress!
            next.initialize(repeating: 0, count: 16)
            for s in 0..<count { next[Int(lengths[s])] &+= 1 }
            // next[bits] becomes the first code of that length (unused symbols count for none).
            firstCodes(next)
            for s in 0..<count {
                let l = Int(lengths[s])
                guard l > 0 else {
                    codes[s] = Code(bits: 0, count: 0)
                    continue
                }
                codes[s] = Code(bits: reversed(next[l], l), count: UInt8(l))
                next[l] &+= 1
            }
        }
    }

    /// The low `count` (1 to 15) bits of `code`, most significant first, reversed: two bytes
    /// looked up in `byteReversed` (a grid tile's codes, some 120, were reversed by five
    /// shift-and-mask steps each, about 1.4 M instructions over the New York MGRS pyramid's).
    @inline(__always)
    static func reversed(_ code: UInt32, _ count: Int, _ byteReversed: UnsafePointer<UInt8>) -> UInt32 {
        let low = UInt32(byteReversed[Int(truncatingIfNeeded: code & 0xFF)])
        let high = UInt32(byteReversed[Int(truncatingIfNeeded: code >> 8 & 0xFF)])
        return (low << 8 | high) >> UInt32(truncatingIfNeeded: 16 &- count)
    }

    /// Each byte's bits in reverse order, indexed by the byte. Read-only once made: shared by
    /// every thread without a lock.
    nonisolated(unsafe) static let byteReversed: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 { table[b] = UInt8(truncatingIfNeeded: reversed(UInt32(b), 8)) }
        return UnsafePointer(table)
    }()

    /// The low `count` (1 to 32) bits of `code`, most significant first, reversed.
    @inline(__always)
    static func reversed(_ code: UInt32, _ count: Int) -> UInt32 {
        var v = code
        v = (v >> 1) & 0x5555_5555 | (v & 0x5555_5555) << 1
        v = (v >> 2) & 0x3333_3333 | (v & 0x3333_3333) << 2
        v = (v >> 4) & 0x0F0F_0F0F | (v & 0x0F0F_0F0F) << 4
        v = (v >> 8) & 0x00FF_00FF | (v & 0x00FF_00FF) << 8
        v = v >> 16 | v << 16
        return v >> UInt32(32 &- count)
    }
}
