import Testing

@testable import Raster

/// The length codes `RunDeflate`'s token loops read from tables without a bounds check, against
/// RFC 1951's table (3.2.5) written out here: code 257 + k covers a base length and as many
/// more as its extra bits count.
@Suite struct RunDeflateLengthCodeTests {
    /// (first code, extra bits, first length) of each row of the RFC's table; 285 is 258 alone.
    static let rfc: [(code: Int, extra: Int, first: Int)] = [
        (257, 0, 3), (258, 0, 4), (259, 0, 5), (260, 0, 6), (261, 0, 7), (262, 0, 8), (263, 0, 9),
        (264, 0, 10), (265, 1, 11), (266, 1, 13), (267, 1, 15), (268, 1, 17), (269, 2, 19), (270, 2, 23),
        (271, 2, 27), (272, 2, 31), (273, 3, 35), (274, 3, 43), (275, 3, 51), (276, 3, 59), (277, 4, 67),
        (278, 4, 83), (279, 4, 99), (280, 4, 115), (281, 5, 131), (282, 5, 163), (283, 5, 195), (284, 5, 227),
        (285, 0, 258),
    ]

    @Test func everyLengthHasTheRFCsCodeAndExtraBits() {
        var covered = 0
        for row in Self.rfc {
            let span = row.code == 285 ? 1 : 1 << row.extra
            // 284's last length would be 258, which has a code of its own.
            let last = min(row.first + span - 1, row.code == 284 ? 257 : 258)
            for length in row.first...last {
                let (symbol, extra) = RunDeflate.lengthCode(length)
                #expect(symbol == row.code, "length \(length)")
                #expect(Int(extra.count) == row.extra, "length \(length)")
                #expect(Int(extra.bits) == length - row.first, "length \(length)")
                covered += 1
            }
        }
        #expect(covered == 256)  // lengths 3-258, each once
    }
}
