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
    /// 2^limit exceeds the alphabets' sizes.
    static func lengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        frequencies.withUnsafeBufferPointer { f in
            lengths.withUnsafeMutableBufferPointer { HuffmanCode.lengths(f, limit: limit, into: $0) }
        }
        return lengths
    }

    /// `lengths(_:limit:)` into `lengths` (as many as `frequencies`). Frequencies are below 2^47.
    static func lengths(
        _ frequencies: UnsafeBufferPointer<Int>, limit: Int, into lengths: UnsafeMutableBufferPointer<UInt8>
    ) {
        let count = frequencies.count
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 6 * count) { scratch in
            let base = scratch.baseAddress!
            treeLengths(frequencies.baseAddress!, count: count, into: lengths.baseAddress!, scratch: base)
            guard maxLength(lengths) > limit else { return }
            // Too deep (rare): halve a copy until it fits.
            let halved = base + 5 * count
            halved.update(from: frequencies.baseAddress!, count: count)
            repeat {
                for s in 0..<count { halved[s] = (halved[s] &+ 1) / 2 }
                treeLengths(halved, count: count, into: lengths.baseAddress!, scratch: base)
            } while maxLength(lengths) > limit
        }
    }

    private static func maxLength(_ lengths: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var longest: UInt8 = 0
        for l in lengths where l > longest { longest = l }
        return Int(longest)
    }

    /// Depths of the Huffman tree of `count` frequencies: leaves in order of (frequency,
    /// symbol), two queues (leaves, then inner nodes in the order they are made; a leaf goes
    /// first when it weighs no more than the inner node). `scratch` holds 5 * `count` words.
    private static func treeLengths(
        _ frequencies: UnsafePointer<Int>, count: Int, into lengths: UnsafeMutablePointer<UInt8>,
        scratch: UnsafeMutablePointer<Int>
    ) {
        lengths.update(repeating: 0, count: count)
        // The used symbols as (frequency << 16 | symbol): distinct keys in the leaves' order.
        let keys = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: UInt64.self)
        var n = 0
        for s in 0..<count where frequencies[s] > 0 {
            keys[n] = UInt64(frequencies[s]) << 16 | UInt64(s)
            n &+= 1
        }
        guard n > 1 else {
            if n == 1 { lengths[Int(keys[0] & 0xFFFF)] = 1 }
            return
        }
        sort(keys, count: n)
        // Each leaf's symbol; node weights over the keys (weight k is written after key k is
        // read), then each node's parent: leaves 0..<n, inner nodes n..<2n-1.
        let symbols = UnsafeMutableRawPointer(scratch + 4 * count).assumingMemoryBound(to: UInt16.self)
        for k in 0..<n { symbols[k] = UInt16(truncatingIfNeeded: keys[k]) }
        let weight = scratch
        let parent = scratch + 2 * count
        for k in 0..<n { weight[k] = Int(keys[k] >> 16) }
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
            parent[a] = next
            parent[b] = next
            next &+= 1
        }
        // Parents come after their children: depths from the root down, in the weights'
        // words (no longer needed).
        let depth = weight
        depth[nodes &- 1] = 0
        var k = nodes &- 2
        while k >= 0 {
            depth[k] = depth[parent[k]] &+ 1
            k &-= 1
        }
        for k in 0..<n { lengths[Int(symbols[k])] = UInt8(truncatingIfNeeded: depth[k]) }
    }

    /// Ascending: insertion for the few symbols of a flat tile, the library's sort beyond.
    private static func sort(_ keys: UnsafeMutablePointer<UInt64>, count: Int) {
        guard count <= 48 else {
            var all = UnsafeMutableBufferPointer(start: keys, count: count)
            all.sort()
            return
        }
        for i in 1..<count {
            let key = keys[i]
            var j = i
            while j > 0 && keys[j &- 1] > key {
                keys[j] = keys[j &- 1]
                j &-= 1
            }
            keys[j] = key
        }
    }

    /// Deflate's canonical codes for `count` lengths (at most 15 bits), reversed for writing.
    static func canonical(_ lengths: UnsafePointer<UInt8>, count: Int, into codes: UnsafeMutablePointer<Code>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { next in
            let next = next.baseAddress!
            next.initialize(repeating: 0, count: 16)
            for s in 0..<count { next[Int(lengths[s])] &+= 1 }
            // next[bits] becomes the first code of that length (unused symbols count for none).
            var code: UInt32 = 0
            var previous: UInt32 = 0
            for bits in 1..<16 {
                code = (code &+ previous) << 1
                previous = next[bits]
                next[bits] = code
            }
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
