/// A deflate stream (RFC 1951) of one block with its own Huffman codes, whose only matches
/// are runs (the pixel to the left: distance 1 for palette indices, 3 for RGB) and the row
/// above (distance one row): what a flat tile is made of.
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
    /// Writes the deflate stream of `input` (`count` bytes, rows of `row` bytes, pixels of
    /// `pixel` bytes, 1 to 4) into `output`, which has room for `bound(count)` bytes; returns
    /// the bytes written, or nil when more than `literalBudget` bytes had to be written as
    /// literals.
    ///
    /// `shortcuts` false tests every word for literals, also where its first byte starts a
    /// match, and scans both distances for every match: the same stream, the long way (tests
    /// compare the two).
    static func compress(
        _ input: UnsafePointer<UInt8>, count: Int, row: Int, pixel: Int, literalBudget: Int,
        into output: UnsafeMutablePointer<UInt8>, shortcuts: Bool = true
    ) -> Int? {
        // Two copies of the body, each with `shortcuts` a constant: tested at every turn of
        // the token loop, the flag was read from the stack and took a register the loop
        // spilled others for (callgrind of `compress` alone over the 641 8-bit palette tiles
        // of the New York MGRS pyramid: 147.7 M -> 142.5 M instructions, the same streams).
        shortcuts
            ? tokens(
                input, count: count, row: row, pixel: pixel, literalBudget: literalBudget, into: output, shortcuts: true
            )
            : tokens(
                input, count: count, row: row, pixel: pixel, literalBudget: literalBudget, into: output,
                shortcuts: false)
    }

    /// `compress`'s body.
    @inline(__always)
    private static func tokens(
        _ input: UnsafePointer<UInt8>, count: Int, row: Int, pixel: Int, literalBudget: Int,
        into output: UnsafeMutablePointer<UInt8>, shortcuts: Bool
    ) -> Int? {
        precondition((1...4).contains(pixel), "distances 1-4 have symbols without extra bits")
        // Frequencies are counted in 32 bits (below: their table stays small).
        guard count < 1 << 32 else { return nil }
        let rowDistance = row <= maxDistance ? row : 0
        // Distances 1-4 are symbols 0-3.
        let leftSymbol = pixel &- 1
        // Matches are at least 3 bytes: tokens are at most the budget's literals and a third
        // of the rest, plus the end of the block.
        let capacity = Swift.min(count, literalBudget) &+ count / minLength &+ 2
        let tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { tokens.deallocate() }
        var tokenCount = 0
        let tables = Tables()
        defer { tables.deallocate() }
        // 32-bit: as 64-bit words the table (2.5 KB) was cleared by `rep stosb`, which
        // callgrind counts by the byte.
        let frequencies = tables.frequencies
        frequencies.initialize(repeating: 0, count: symbolCount)
        let literalFrequencies = frequencies
        let distanceFrequencies = frequencies + literalSymbols
        let rowSymbol = rowDistance > 0 ? distanceSymbol(rowDistance) : 0
        let lengthSymbols = Self.lengthSymbols
        var literals = 0
        var i = 0
        while i < count {
            // Literals a word at a time: where neither the pixel to the left nor the row
            // above repeats the next 3 bytes, the bytes are literals, as the matches below
            // would find; up to 6 are decided from one 8-byte word.
            // First whether byte i itself starts a match of 3 from either distance (the word's
            // first position): most turns do (a run or a row repeating the one above), and then
            // the word has no literal to give; the three bytes alone cost a fraction of the
            // word's test. A distance without its 3 bytes cannot give a match (its length is 2
            // at most, and the other's, at least 3, wins): its scan below is skipped.
            let wordFits = rowDistance > 0 && i >= rowDistance && count &- i >= 8
            var fromLeft = true
            var fromRow = true
            if shortcuts, wordFits {
                fromLeft = startsMatch(input + i, input + (i &- pixel))
                fromRow = startsMatch(input + i, input + (i &- rowDistance))
            }
            if wordFits, !shortcuts || !(fromLeft || fromRow) {
                let here = load(input + i)
                let matches =
                    threeEqualBytes(here ^ load(input + (i &- pixel)))
                    | threeEqualBytes(here ^ load(input + (i &- rowDistance)))
                let n = Swift.min(6, matches.trailingZeroBitCount / 8)
                if n > 0 {
                    literals &+= n
                    if literals > literalBudget { return nil }
                    for k in 0..<n {
                        let byte = input[i &+ k]
                        tokens[tokenCount &+ k] = UInt32(byte)
                        literalFrequencies[Int(byte)] &+= 1
                    }
                    tokenCount &+= n
                    i &+= n
                    continue
                }
            }
            let limit = Swift.min(maxLength, count &- i)
            var length = i >= pixel && fromLeft ? matchLength(input + i, input + (i &- pixel), limit: limit) : 0
            var byRow = false
            if length < limit, rowDistance > 0, i >= rowDistance, fromRow {
                let above = matchLength(input + i, input + (i &- rowDistance), limit: limit)
                if above > length {
                    length = above
                    byRow = true
                }
            }
            if length >= minLength {
                // A match: its length, and bit 10 set for the row above (else bit 9: the pixel
                // to the left).
                // (At most 258: no conversion check, which also cost the loop a register: 2.1 M.)
                tokens[tokenCount] = UInt32(truncatingIfNeeded: length) | (byRow ? matchFromRow : matchFromLeft)
                literalFrequencies[Int(lengthSymbols[length])] &+= 1
                distanceFrequencies[byRow ? rowSymbol : leftSymbol] &+= 1
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
        if (0..<distanceSymbols).allSatisfy({ distanceFrequencies[$0] == 0 }) { distanceFrequencies[0] = 1 }

        let lengths = tables.lengths
        let codes = tables.codes
        @inline(__always) func code(first: Int, size: Int) {
            HuffmanCode.build(
                frequencies + first, count: size, limit: 15, lengths: lengths + first, codes: codes + first,
                scratch: tables.scratch)
        }
        code(first: 0, size: literalSymbols)
        code(first: literalSymbols, size: distanceSymbols)
        let literalCodes = codes
        let distanceCodes = codes + literalSymbols
        var bits = BitWriter(output)
        bits.write(0b101, 3)  // BFINAL 1, BTYPE 10: dynamic Huffman codes
        writeCodeLengths(tables, into: &bits)
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
                UInt64(code.bits) | UInt64(extra.bits) &<< UInt64(code.count), Int(code.count) &+ Int(extra.count))
            if token & matchFromRow != 0 {
                let d = distanceCodes[rowSymbol]
                bits.write(UInt64(d.bits) | rowExtra.bits &<< UInt64(d.count), Int(d.count) &+ rowExtra.count)
            } else {
                let d = distanceCodes[leftSymbol]
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
    /// Literal and length symbols 0-285, distance symbols 0-29.
    private static let literalSymbols = 286
    private static let distanceSymbols = 30
    private static let symbolCount = literalSymbols + distanceSymbols

    /// The most bytes `compress` writes for `count` bytes of input: no code is longer than
    /// 15 bits, a match (at least 3 bytes) at most 48 bits with its extra bits, so at most 16
    /// bits a byte; the header's code lengths (under 400 bytes); a word of slack.
    static func bound(_ count: Int) -> Int { count &* 2 &+ 1024 }

    /// The fixed-size memory of one `compress` call, in one allocation: both alphabets side by
    /// side (literals and lengths, then distances) with their frequencies, code lengths and
    /// codes; the Huffman builds' scratch; the header's items and its code length code.
    /// Allocated one by one, with the builds' temporary buffers (which Swift puts on the heap
    /// past 1 KB), they were some eight allocations a tile.
    private struct Tables {
        let base: UnsafeMutableRawPointer
        let codes: UnsafeMutablePointer<HuffmanCode.Code>
        let scratch: UnsafeMutablePointer<UInt64>
        let headerCodes: UnsafeMutablePointer<HuffmanCode.Code>
        let frequencies: UnsafeMutablePointer<UInt32>
        let headerFrequencies: UnsafeMutablePointer<UInt32>
        let lengths: UnsafeMutablePointer<UInt8>
        /// The header's lengths, then its items' symbols and extra bits (`writeCodeLengths`).
        let items: UnsafeMutablePointer<UInt8>
        let headerLengths: UnsafeMutablePointer<UInt8>

        /// The regions' sizes in bytes, in decreasing alignment.
        private static let sizes = [
            MemoryLayout<HuffmanCode.Code>.stride * symbolCount, 8 * HuffmanCode.scratchWords(literalSymbols),
            MemoryLayout<HuffmanCode.Code>.stride * headerSymbols, 4 * symbolCount, 4 * headerSymbols, symbolCount,
            3 * symbolCount, headerSymbols,
        ]
        private static let byteCount = sizes.reduce(0, +)

        /// Each region bound once to its type.
        init() {
            let sizes = Self.sizes
            let start = UnsafeMutableRawPointer.allocate(byteCount: Self.byteCount, alignment: 8)
            base = start
            var offset = 0
            func next<T>(_ type: T.Type, _ k: Int) -> UnsafeMutablePointer<T> {
                let p = (start + offset).bindMemory(to: T.self, capacity: sizes[k] / MemoryLayout<T>.stride)
                offset += sizes[k]
                return p
            }
            codes = next(HuffmanCode.Code.self, 0)
            scratch = next(UInt64.self, 1)
            headerCodes = next(HuffmanCode.Code.self, 2)
            frequencies = next(UInt32.self, 3)
            headerFrequencies = next(UInt32.self, 4)
            lengths = next(UInt8.self, 5)
            items = next(UInt8.self, 6)
            headerLengths = next(UInt8.self, 7)
        }

        func deallocate() { base.deallocate() }
    }

    /// The code length code's symbols.
    private static let headerSymbols = 19

    private static let minLength = 3
    private static let maxLength = 258
    private static let maxDistance = 32_768

    /// How many bytes from `a` equal those from `b` (`b` before `a`, overlapping allowed, as
    /// deflate copies byte by byte), at most `limit`.
    ///
    /// The first word alone (most matches from the left end within it, at a line's pixels),
    /// then 64 bytes a turn as four vector compares and one mask (a repeated row's long match
    /// from above is most of a grid tile's scanning: four 64-bit words a turn cost twice the
    /// instructions a byte), then 32 and 8 at a time.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        @inline(__always) func differ(_ n: Int) -> UInt64 {
            UnsafeRawPointer(a + n).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(b + n).loadUnaligned(as: UInt64.self)
        }
        var n = 0
        if limit >= 8 {
            let x = differ(0)
            if x != 0 { return UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            n = 8
        }
        while n &+ 64 <= limit {
            let x =
                UnsafeRawPointer(a + n).loadUnaligned(as: SIMD8<UInt64>.self)
                ^ UnsafeRawPointer(b + n).loadUnaligned(as: SIMD8<UInt64>.self)
            let half = x.lowHalf | x.highHalf
            let quarter = half.lowHalf | half.highHalf
            guard quarter[0] | quarter[1] == 0 else { break }
            n &+= 64
        }
        if n &+ 32 <= limit {
            let x =
                UnsafeRawPointer(a + n).loadUnaligned(as: SIMD4<UInt64>.self)
                ^ UnsafeRawPointer(b + n).loadUnaligned(as: SIMD4<UInt64>.self)
            let half = x.lowHalf | x.highHalf
            if half[0] | half[1] == 0 { n &+= 32 }
        }
        while n &+ 8 <= limit {
            let x = differ(n)
            if x != 0 { return n &+ UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            n &+= 8
        }
        while n < limit, a[n] == b[n] { n &+= 1 }
        return n
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// Whether the 3 bytes at `p` equal those at `earlier` (a match of at least `minLength`
    /// starts at `p`). Four bytes are loaded from each (callers have 8 left).
    @inline(__always)
    private static func startsMatch(_ p: UnsafePointer<UInt8>, _ earlier: UnsafePointer<UInt8>) -> Bool {
        let a = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
        let b = UnsafeRawPointer(earlier).loadUnaligned(as: UInt32.self)
        return UInt32(littleEndian: a ^ b) & 0x00FF_FFFF == 0
    }

    /// For the xor of two little-endian words: the high bit of byte k set when bytes k, k+1
    /// and k+2 of the words are equal (a match of at least `minLength` starts there), for k
    /// up to 5; bytes 6 and 7 are clear (not decided within the word).
    @inline(__always)
    private static func threeEqualBytes(_ difference: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // The high bit of each byte that is zero, exactly (no borrow runs across bytes).
        let zero = ~(((difference & low) &+ low) | difference | low)
        return zero & (zero >> 8) & (zero >> 16)
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

    /// Each length's symbol and extra bits, indexed by lengths 0-258 (below 3: unused), as
    /// tables read without a bounds check: the token loops look them up once a match, and
    /// an array's checks were some 4 instructions of each (lengths are 3-258 by construction;
    /// 1.5 M of the 142.5 M above). Read-only once made: shared by every thread without a lock.
    nonisolated(unsafe) private static let lengthSymbols: UnsafePointer<UInt16> = table(
        (0...maxLength).map {
            $0 < minLength ? 0 : UInt16(257 + lengthIndex($0))
        })
    nonisolated(unsafe) private static let lengthExtras: UnsafePointer<HuffmanCode.Code> = table(
        (0...maxLength).map { length in
            guard length >= minLength else { return HuffmanCode.Code(bits: 0, count: 0) }
            let s = lengthIndex(length)
            return HuffmanCode.Code(bits: UInt32(length - lengthBases[s]), count: UInt8(lengthExtraBits[s]))
        })

    /// Length `length`'s symbol and extra bits, as the token loops read them (tests).
    static func lengthCode(_ length: Int) -> (symbol: Int, extra: HuffmanCode.Code) {
        precondition((minLength...maxLength).contains(length))
        return (Int(lengthSymbols[length]), lengthExtras[length])
    }

    /// A copy of `values` that lives as long as the process (a table made once).
    private static func table<T>(_ values: [T]) -> UnsafePointer<T> {
        let copy = UnsafeMutablePointer<T>.allocate(capacity: values.count)
        copy.initialize(from: values, count: values.count)
        return UnsafePointer(copy)
    }

    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]

    /// A loop, not `lastIndex` with a closure (some 1,900 instructions a tile).
    private static func distanceSymbol(_ distance: Int) -> Int {
        var symbol = distanceBases.count - 1
        while distanceBases[symbol] > distance { symbol -= 1 }
        return symbol
    }

    private static func distanceExtraBits(_ symbol: Int) -> Int { symbol < 4 ? 0 : symbol / 2 - 1 }

    /// The order in which the code length code's lengths are written.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A dynamic block's header after BTYPE: the two codes' lengths (`lengths`: the literal
    /// and length code's 286, then the distance code's 30), run-length coded (16 repeats the
    /// previous length 3-6 times, 17 and 18 write 3-10 and 11-138 zeros) and Huffman coded in
    /// their turn.
    private static func writeCodeLengths(_ tables: Tables, into bits: inout BitWriter) {
        let lengths = tables.lengths
        var hlit = literalSymbols
        while hlit > 257 && lengths[hlit - 1] == 0 { hlit -= 1 }
        var hdist = distanceSymbols
        while hdist > 1 && lengths[literalSymbols + hdist - 1] == 0 { hdist -= 1 }
        // The lengths written (the literal code's first hlit, the distance code's first hdist),
        // then each item's symbol and extra bits: at most one item a length.
        let all = tables.items
        let symbols = all + symbolCount
        let extras = symbols + symbolCount
        let total = hlit + hdist
        all.update(from: lengths, count: hlit)
        (all + hlit).update(from: lengths + literalSymbols, count: hdist)
        var items = 0
        @inline(__always) func item(_ symbol: UInt8, _ extra: Int) {
            symbols[items] = symbol
            extras[items] = UInt8(truncatingIfNeeded: extra)
            items &+= 1
        }
        var k = 0
        while k < total {
            let v = all[k]
            var run = 1
            while k + run < total && all[k + run] == v { run += 1 }
            k += run
            var left = run
            if v == 0 {
                while left >= 11 {
                    let n = min(left, 138)
                    item(18, n - 11)
                    left -= n
                }
                if left >= 3 {
                    item(17, left - 3)
                    left = 0
                }
            } else {
                item(v, 0)
                left -= 1
                while left >= 3 {
                    let n = min(left, 6)
                    item(16, n - 3)
                    left -= n
                }
            }
            for _ in 0..<left { item(v, 0) }
        }
        // The code length code, over raw memory (arrays, a filter and the array form of
        // the lengths cost some 10,000 instructions a tile).
        let frequencies = tables.headerFrequencies
        frequencies.initialize(repeating: 0, count: headerSymbols)
        for i in 0..<items { frequencies[Int(symbols[i])] &+= 1 }
        // zlib rejects an incomplete code length code: give it a second symbol, unused.
        var used = 0
        for s in 0..<headerSymbols where frequencies[s] > 0 { used &+= 1 }
        if used < 2 { frequencies[frequencies[0] > 0 ? 1 : 0] = 1 }
        let codeLengths = tables.headerLengths
        let codes = tables.headerCodes
        HuffmanCode.build(
            frequencies, count: headerSymbols, limit: 7, lengths: codeLengths, codes: codes, scratch: tables.scratch)
        var hclen = 19
        while hclen > 4 && codeLengths[codeLengthOrder[hclen - 1]] == 0 { hclen -= 1 }
        bits.write(UInt64(hlit - 257), 5)
        bits.write(UInt64(hdist - 1), 5)
        bits.write(UInt64(hclen - 4), 4)
        for i in 0..<hclen { bits.write(UInt64(codeLengths[codeLengthOrder[i]]), 3) }
        for i in 0..<items {
            let symbol = Int(symbols[i])
            let code = codes[symbol]
            bits.write(UInt64(code.bits), Int(code.count))
            switch symbol {
            case 16: bits.write(UInt64(extras[i]), 2)
            case 17: bits.write(UInt64(extras[i]), 3)
            case 18: bits.write(UInt64(extras[i]), 7)
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
        ///
        /// `filled` is below 32 here, so the shift needs neither Swift's check of the shift
        /// count nor of the conversion's sign (both were compiled into every code written).
        @inline(__always)
        mutating func write(_ value: UInt64, _ count: Int) {
            buffer |= value &<< UInt64(truncatingIfNeeded: filled)
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
