import TestSupport
import Testing

@testable import Raster

/// `RunDeflate`'s Huffman codes against what RFC 1951 and Huffman's algorithm promise:
/// canonical codes as the RFC's own example lists them, and code lengths of the least total
/// length (any Huffman tree's cost, worked out here by repeatedly merging the two lightest
/// weights) that form a complete prefix code.
@Suite struct HuffmanCodeTests {
    /// The RFC's example (3.2.2): lengths (3, 3, 3, 3, 3, 2, 4, 4) for A-H give the codes
    /// 010, 011, 100, 101, 110, 00, 1110, 1111 (written from the first bit, so reversed).
    @Test func canonicalCodesAreTheRFCExample() {
        let lengths: [UInt8] = [3, 3, 3, 3, 3, 2, 4, 4, 0]
        let expected = ["010", "011", "100", "101", "110", "00", "1110", "1111", ""]
        var codes = [HuffmanCode.Code](repeating: HuffmanCode.Code(bits: 0, count: 0), count: lengths.count)
        lengths.withUnsafeBufferPointer { l in
            codes.withUnsafeMutableBufferPointer {
                HuffmanCode.canonical(l.baseAddress!, count: l.count, into: $0.baseAddress!)
            }
        }
        for (code, bits) in zip(codes, expected) {
            // The code as written: its first bit in the low bit.
            let written = (0..<Int(code.count)).map { code.bits >> $0 & 1 == 1 ? "1" : "0" }.joined()
            #expect(written == bits)
        }
    }

    /// The codes' bits reversed by the byte table, as the shifts and masks reverse them, for
    /// every code of every length a deflate code has (1 to 15 bits).
    @Test func tableReversalMatchesTheShifts() {
        let table = HuffmanCode.byteReversed
        for count in 1...15 {
            for code in UInt32(0)..<(1 << count) {
                guard HuffmanCode.reversed(code, count, table) == HuffmanCode.reversed(code, count) else {
                    Issue.record("\(code) of \(count) bits")
                    return
                }
            }
        }
        #expect(HuffmanCode.reversed(0b110, 3, table) == 0b011)
        #expect(HuffmanCode.reversed(0b100_0000_0000_0001, 15, table) == 0b100_0000_0000_0001)
        #expect(HuffmanCode.reversed(0b100_0000_0000_0000, 15, table) == 1)
    }

    /// The least total length of a prefix code for `frequencies` (unused symbols left out).
    static func optimalCost(_ frequencies: [Int]) -> Int {
        var weights = frequencies.filter { $0 > 0 }.sorted()
        guard weights.count > 1 else { return weights.reduce(0, +) }
        var cost = 0
        while weights.count > 1 {
            let merged = weights[0] + weights[1]
            cost += merged
            weights.removeFirst(2)
            weights.insert(merged, at: weights.firstIndex { $0 > merged } ?? weights.count)
        }
        return cost
    }

    @Test func lengthsAreOptimalAndComplete() {
        var random = Xorshift(state: 11)
        for trial in 0..<300 {
            // Alphabets of RunDeflate's sizes; a few to all symbols used, frequencies spread
            // from 1 to tens of thousands, with ties.
            let size = [286, 30, 19][trial % 3]
            let used = 1 + Int(random.next() % UInt64(size))
            var frequencies = [Int](repeating: 0, count: size)
            for _ in 0..<used {
                let symbol = Int(random.next() % UInt64(size))
                frequencies[symbol] = 1 + Int(random.next() % (trial % 2 == 0 ? 8 : 40_000))
            }
            let lengths = HuffmanCode.lengths(frequencies, limit: 64)
            #expect(zip(frequencies, lengths).allSatisfy { ($0 == 0) == ($1 == 0) }, "trial \(trial)")
            let count = frequencies.filter { $0 > 0 }.count
            let cost = zip(frequencies, lengths).reduce(0) { $0 + $1.0 * Int($1.1) }
            #expect(cost == (count == 1 ? frequencies.reduce(0, +) : Self.optimalCost(frequencies)), "trial \(trial)")
            if count > 1 {
                let kraft = lengths.reduce(0.0) { $0 + ($1 == 0 ? 0 : 1 / Double(1 << Int($1))) }
                #expect(kraft == 1, "trial \(trial)")
            }
        }
    }
}
