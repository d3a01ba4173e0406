/// A deflate stream (RFC 1951) of one block with its own Huffman codes, whose only matches
/// are runs (distance 1) and the row above (distance one row): what a flat tile is made of.
///
/// Why: a map tile of plain areas crossed by a few grid lines is, as palette indices, long
/// runs of one byte and rows that repeat the row above. libdeflate's fastest level still
/// hashes every byte it passes (about 7.5 instructions a byte, 0.9 M for a 256 x 256 palette
/// tile, most of what such a tile costs); here a run is measured eight bytes at a time, so the
/// same tile costs well under half of that, and the output is smaller (few distinct symbols,
/// coded for this tile alone; measured in `PNGEncodingOptions.measuredPalette`). Tiles with
/// detail (text, many colours) need the other distances: the encoder gives up on them
/// (`literalBudget`) and they go to libdeflate.
enum RunDeflate {
    /// Writes the deflate stream of `input` (`count` bytes, rows of `row` bytes) into `output`,
    /// which has room for `bound(count)` bytes; returns the bytes written, or nil when more
    /// than `literalBudget` bytes had to be written as literals.
    static func compress(
        _ input: UnsafePointer<UInt8>, count: Int, row: Int, literalBudget: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        let rowDistance = row <= maxDistance ? row : 0
        // Matches are at least 3 bytes: tokens are at most the budget's literals and a third
        // of the rest, plus the end of the block.
        let capacity = Swift.min(count, literalBudget) &+ count / minLength &+ 2
        let tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { tokens.deallocate() }
        var tokenCount = 0
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        let rowSymbol = rowDistance > 0 ? distanceSymbol(rowDistance) : 0
        let lengthSymbols = Self.lengthSymbols
        var literals = 0
        var i = 0
        while i < count {
            let limit = Swift.min(maxLength, count &- i)
            var length = i > 0 ? matchLength(input + i, input + (i &- 1), limit: limit) : 0
            var byRow = false
            if length < limit, rowDistance > 0, i >= rowDistance {
                let above = matchLength(input + i, input + (i &- rowDistance), limit: limit)
                if above > length {
                    length = above
                    byRow = true
                }
            }
            if length >= minLength {
                // A match: its length, and bit 9 set for the row above (else distance 1).
                tokens[tokenCount] = UInt32(length) | (byRow ? matchFromRow : matchFromLeft)
                literalFrequencies[Int(lengthSymbols[length])] &+= 1
                distanceFrequencies[byRow ? rowSymbol : 0] &+= 1
                i &+= length
            } else {
                literals &+= 1
                if literals > literalBudget { return nil }
                tokens[tokenCount] = UInt32(input[i])
                literalFrequencies[Int(input[i])] &+= 1
                i &+= 1
            }
            tokenCount &+= 1
        }
        literalFrequencies[endOfBlock] = 1
        // Deflate's decoders want at least one distance code.
        if distanceFrequencies.allSatisfy({ $0 == 0 }) { distanceFrequencies[0] = 1 }

        let literalLengths = codeLengths(literalFrequencies, limit: 15)
        let distanceLengths = codeLengths(distanceFrequencies, limit: 15)
        let literalCodes = canonicalCodes(literalLengths)
        let distanceCodes = canonicalCodes(distanceLengths)
        var bits = BitWriter(output)
        bits.write(0b101, 3)  // BFINAL 1, BTYPE 10: dynamic Huffman codes
        writeCodeLengths(literal: literalLengths, distance: distanceLengths, into: &bits)
        let rowExtra =
            rowDistance > 0
            ? (bits: UInt64(rowDistance - distanceBases[rowSymbol]), count: distanceExtraBits(rowSymbol))
            : (bits: 0, count: 0)
        let lengthExtras = Self.lengthExtras
        for t in 0..<tokenCount {
            let token = tokens[t]
            guard token & (matchFromRow | matchFromLeft) != 0 else {
                let code = literalCodes[Int(token)]
                bits.write(UInt64(code.bits), Int(code.count))
                continue
            }
            let length = Int(token & 0x1FF)
            let code = literalCodes[Int(lengthSymbols[length])]
            let extra = lengthExtras[length]
            bits.write(
                UInt64(code.bits) | UInt64(extra.bits) << UInt64(code.count), Int(code.count) &+ Int(extra.count))
            if token & matchFromRow != 0 {
                let d = distanceCodes[rowSymbol]
                bits.write(UInt64(d.bits) | rowExtra.bits << UInt64(d.count), Int(d.count) &+ rowExtra.count)
            } else {
                let d = distanceCodes[0]
                bits.write(UInt64(d.bits), Int(d.count))
            }
        }
        let end = literalCodes[endOfBlock]
        bits.write(UInt64(end.bits), Int(end.count))
        return bits.finish()
    }

    private static let matchFromLeft: UInt32 = 1 << 9
    private static let matchFromRow: UInt32 = 1 << 10
    private static let endOfBlock = 256

    /// The most bytes `compress` writes for `count` bytes of input: no code is longer than
    /// 15 bits, a match (at least 3 bytes) at most 48 bits with its extra bits, so at most 16
    /// bits a byte; the header's code lengths (under 400 bytes); a word of slack.
    static func bound(_ count: Int) -> Int { count &* 2 &+ 1024 }

    private static let minLength = 3
    private static let maxLength = 258
    private static let maxDistance = 32_768

    /// How many bytes from `a` equal those from `b` (`b` before `a`, overlapping allowed, as
    /// deflate copies byte by byte), at most `limit`; eight at a time.
    ///
    /// The first word alone, then 32 bytes a turn while they last (four words, one branch:
    /// a repeated row's long match from above is most of a grid tile's scanning), then 8.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        @inline(__always) func differ(_ n: Int) -> UInt64 {
            UnsafeRawPointer(a + n).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(b + n).loadUnaligned(as: UInt64.self)
        }
        var n = 0
        // Most matches from the left end within a word (at a line's pixels): that word first.
        if limit >= 8 {
            let x = differ(0)
            if x != 0 { return UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            n = 8
        }
        while n &+ 32 <= limit {
            let x0 = differ(n)
            let x1 = differ(n &+ 8)
            let x2 = differ(n &+ 16)
            let x3 = differ(n &+ 24)
            if x0 | x1 | x2 | x3 != 0 {
                // The first word that differs; its first byte that differs.
                if x0 != 0 { return n &+ UInt64(littleEndian: x0).trailingZeroBitCount / 8 }
                if x1 != 0 { return n &+ 8 &+ UInt64(littleEndian: x1).trailingZeroBitCount / 8 }
                if x2 != 0 { return n &+ 16 &+ UInt64(littleEndian: x2).trailingZeroBitCount / 8 }
                return n &+ 24 &+ UInt64(littleEndian: x3).trailingZeroBitCount / 8
            }
            n &+= 32
        }
        while n &+ 8 <= limit {
            let x =
                UnsafeRawPointer(a + n).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(b + n).loadUnaligned(as: UInt64.self)
            if x != 0 { return n &+ UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            n &+= 8
        }
        while n < limit, a[n] == b[n] { n &+= 1 }
        return n
    }

    /// A Huffman code (bits reversed, as deflate writes codes from their first bit), or extra
    /// bits, `count` bits.
    private struct Code {
        var bits: UInt32
        var count: UInt8
    }

    /// The first `count` bits of `code`, most significant first, reversed.
    private static func reversed(_ code: UInt32, _ count: Int) -> UInt32 {
        var r: UInt32 = 0
        for k in 0..<count where code & (1 << k) != 0 { r |= 1 << (count - 1 - k) }
        return r
    }

    /// Lengths 3-258 as symbols 257-285 and extra bits (RFC 1951, 3.2.5).
    private static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]

    /// The length symbol's index in `lengthBases` (258 has its own symbol).
    private static func lengthIndex(_ length: Int) -> Int {
        length == maxLength ? lengthBases.count - 1 : lengthBases.lastIndex { $0 <= length && $0 != maxLength }!
    }

    private static let lengthSymbols: [UInt16] = (0...maxLength).map {
        $0 < minLength ? 0 : UInt16(257 + lengthIndex($0))
    }
    private static let lengthExtras: [Code] = (0...maxLength).map { length in
        guard length >= minLength else { return Code(bits: 0, count: 0) }
        let s = lengthIndex(length)
        return Code(bits: UInt32(length - lengthBases[s]), count: UInt8(lengthExtraBits[s]))
    }

    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]

    private static func distanceSymbol(_ distance: Int) -> Int { distanceBases.lastIndex { $0 <= distance }! }

    private static func distanceExtraBits(_ symbol: Int) -> Int { symbol < 4 ? 0 : symbol / 2 - 1 }

    /// Huffman code lengths of at most `limit` bits for `frequencies`, 0 for unused symbols;
    /// a single symbol gets 1 bit. When the tree is too deep the frequencies are halved
    /// (rounding up, so used symbols stay used) until it is not: all equal, the tree is
    /// balanced, and 2^limit exceeds the alphabets' sizes.
    static func codeLengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var frequencies = frequencies
        while true {
            let lengths = huffmanLengths(frequencies)
            if lengths.allSatisfy({ Int($0) <= limit }) { return lengths }
            frequencies = frequencies.map { ($0 + 1) / 2 }
        }
    }

    /// Depths of the Huffman tree: leaves in order of (frequency, symbol), two queues.
    private static func huffmanLengths(_ frequencies: [Int]) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        let leaves = frequencies.indices.filter { frequencies[$0] > 0 }.sorted {
            (frequencies[$0], $0) < (frequencies[$1], $1)
        }
        let n = leaves.count
        guard n > 1 else {
            if let only = leaves.first { lengths[only] = 1 }
            return lengths
        }
        var weight = [Int](repeating: 0, count: 2 * n - 1)
        var parent = [Int](repeating: 0, count: 2 * n - 1)
        for k in 0..<n { weight[k] = frequencies[leaves[k]] }
        var leaf = 0
        var inner = n
        var next = n
        func lightest() -> Int {
            if leaf < n && (inner >= next || weight[leaf] <= weight[inner]) {
                leaf += 1
                return leaf - 1
            }
            inner += 1
            return inner - 1
        }
        while next < 2 * n - 1 {
            let a = lightest()
            let b = lightest()
            weight[next] = weight[a] + weight[b]
            parent[a] = next
            parent[b] = next
            next += 1
        }
        // Parents come after their children: depths from the root down.
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        for k in stride(from: 2 * n - 3, through: 0, by: -1) { depth[k] = depth[parent[k]] + 1 }
        for k in 0..<n { lengths[leaves[k]] = UInt8(depth[k]) }
        return lengths
    }

    /// Deflate's canonical codes for `lengths` (RFC 1951, 3.2.2), reversed for writing.
    private static func canonicalCodes(_ lengths: [UInt8]) -> [Code] {
        var counts = [UInt32](repeating: 0, count: 16)
        for l in lengths where l > 0 { counts[Int(l)] += 1 }
        var next = [UInt32](repeating: 0, count: 16)
        var code: UInt32 = 0
        for bits in 1..<16 {
            code = (code + counts[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { l in
            guard l > 0 else { return Code(bits: 0, count: 0) }
            defer { next[Int(l)] += 1 }
            return Code(bits: reversed(next[Int(l)], Int(l)), count: l)
        }
    }

    /// The order in which the code length code's lengths are written.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A dynamic block's header after BTYPE: the two codes' lengths, run-length coded (16
    /// repeats the previous length 3-6 times, 17 and 18 write 3-10 and 11-138 zeros) and
    /// Huffman coded in their turn.
    private static func writeCodeLengths(literal: [UInt8], distance: [UInt8], into bits: inout BitWriter) {
        var hlit = 286
        while hlit > 257 && literal[hlit - 1] == 0 { hlit -= 1 }
        var hdist = 30
        while hdist > 1 && distance[hdist - 1] == 0 { hdist -= 1 }
        let all = Array(literal[0..<hlit] + distance[0..<hdist])
        var items: [(symbol: Int, extra: Int)] = []
        var k = 0
        while k < all.count {
            let v = all[k]
            var run = 1
            while k + run < all.count && all[k + run] == v { run += 1 }
            k += run
            var left = run
            if v == 0 {
                while left >= 11 {
                    let n = min(left, 138)
                    items.append((18, n - 11))
                    left -= n
                }
                if left >= 3 {
                    items.append((17, left - 3))
                    left = 0
                }
            } else {
                items.append((Int(v), 0))
                left -= 1
                while left >= 3 {
                    let n = min(left, 6)
                    items.append((16, n - 3))
                    left -= n
                }
            }
            items += repeatElement((symbol: Int(v), extra: 0), count: left)
        }
        var frequencies = [Int](repeating: 0, count: 19)
        for item in items { frequencies[item.symbol] += 1 }
        // zlib rejects an incomplete code length code: give it a second symbol, unused.
        if frequencies.filter({ $0 > 0 }).count < 2 { frequencies[frequencies[0] > 0 ? 1 : 0] = 1 }
        let lengths = codeLengths(frequencies, limit: 7)
        let codes = canonicalCodes(lengths)
        var hclen = 19
        while hclen > 4 && lengths[codeLengthOrder[hclen - 1]] == 0 { hclen -= 1 }
        bits.write(UInt64(hlit - 257), 5)
        bits.write(UInt64(hdist - 1), 5)
        bits.write(UInt64(hclen - 4), 4)
        for i in 0..<hclen { bits.write(UInt64(lengths[codeLengthOrder[i]]), 3) }
        for item in items {
            let code = codes[item.symbol]
            bits.write(UInt64(code.bits), Int(code.count))
            switch item.symbol {
            case 16: bits.write(UInt64(item.extra), 2)
            case 17: bits.write(UInt64(item.extra), 3)
            case 18: bits.write(UInt64(item.extra), 7)
            default: break
            }
        }
    }

    /// Bits packed from the least significant end, as deflate wants, stored 32 at a time.
    private struct BitWriter {
        let start: UnsafeMutablePointer<UInt8>
        var out: UnsafeMutablePointer<UInt8>
        var buffer: UInt64 = 0
        var filled = 0

        init(_ start: UnsafeMutablePointer<UInt8>) {
            self.start = start
            out = start
        }

        /// At most 32 bits at a time.
        @inline(__always)
        mutating func write(_ value: UInt64, _ count: Int) {
            buffer |= value << UInt64(filled)
            filled &+= count
            if filled >= 32 {
                UnsafeMutableRawPointer(out).storeBytes(
                    of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
                out += 4
                buffer >>= 32
                filled &-= 32
            }
        }

        /// Writes the last partial bytes; the stream's length in bytes.
        mutating func finish() -> Int {
            while filled > 0 {
                out.pointee = UInt8(truncatingIfNeeded: buffer)
                out += 1
                buffer >>= 8
                filled -= 8
            }
            return out - start
        }
    }
}
