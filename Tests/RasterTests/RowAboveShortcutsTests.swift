import TestSupport
import Testing

@testable import Raster

/// The encoder's shortcuts over rows that mostly repeat the row above (a map tile crossed by
/// slanted grid lines): the census takes a block of eight pixels equal to the block above from
/// the row above's notes, and `RunDeflate` skips tests whose outcome one byte already decides.
/// Each must give what the long way gives, on random images made of such rows.
@Suite struct RowAboveShortcutsTests {
    /// Rows that copy the row above, with slanted "lines" that move a pixel every few rows
    /// (their anti-aliased pixels in a few shades), random dots, and sometimes a translucent
    /// colour or more than 256 colours; `width` need not be a multiple of eight.
    static func slantedRows(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = Xorshift(state: seed)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let shades = 1 + next(6)
        let translucent = next(4) == 0
        let manyColours = next(5) == 0
        let background: UInt32 = 0xFFE0_D8C8
        var pixels = [UInt32](repeating: background, count: width * height)
        let lines = (0..<(1 + next(4))).map { _ in
            (x: Double(next(width)), slope: Double(next(41) - 20) / 200, width: 1 + next(3))
        }
        for y in 0..<height {
            for line in lines {
                let x = line.x + line.slope * Double(y)
                let cell = Int(x.rounded(.down))
                let shade = Int((x - x.rounded(.down)) * Double(shades))
                for k in 0...line.width {
                    let column = cell + k
                    guard column >= 0, column < width else { continue }
                    let level = k == 0 ? shade : (k == line.width ? shades - 1 - shade : shades)
                    pixels[y * width + column] = 0xFF30_2000 | UInt32(level * 9)
                }
            }
            for _ in 0..<next(3) where next(4) == 0 {
                let colour: UInt32 =
                    manyColours
                    ? 0xFF00_0000 | UInt32(next(1 << 24)) : (translucent ? 0x8010_2030 : 0xFF10_2030 | UInt32(next(4)))
                pixels[y * width + next(width)] = colour
            }
        }
        return pixels.flatMap { p in (0..<4).map { UInt8(truncatingIfNeeded: p >> (8 * $0)) } }
    }

    /// What a census reports, and the palette index it gives every pixel.
    struct Answer: Equatable {
        var colours: [UInt32]
        var fits: Bool
        var opaque: Bool
        var changes: Int
        var indices: [UInt8]
    }

    static func answer(_ census: ColourCensus, _ bytes: UnsafeRawBufferPointer, width: Int, height: Int) -> Answer {
        var indices = [UInt8](repeating: 0, count: width * height)
        indices.withUnsafeMutableBufferPointer {
            census.writeIndices(
                of: bytes, width: width, height: height, bitDepth: 8, into: $0.baseAddress!, rowBytes: width,
                stride: width)
        }
        return Answer(
            colours: census.colours, fits: census.fitsPalette, opaque: census.opaque, changes: census.changes,
            indices: census.fitsPalette ? indices : [])
    }

    @Test func blocksTakenFromTheRowAboveCountAsThePixelsDo() {
        var reused = 0
        for seed in 1...300 {
            let width = [8, 13, 40, 64, 100, 256][seed % 6]
            let height = 2 + seed % 37
            let bytes = Self.slantedRows(width: width, height: height, seed: UInt64(seed))
            bytes.withUnsafeBytes { raw in
                let fast = ColourCensus(rows: raw, width: width, height: height, stride: width * 4)
                let slow = ColourCensus(
                    rows: raw, width: width, height: height, stride: width * 4, reusingBlocks: false)
                #expect(
                    Self.answer(fast, raw, width: width, height: height)
                        == Self.answer(slow, raw, width: width, height: height), "seed \(seed)")
                // And against the plain count, pixel by pixel.
                let counted = ColourCensusTests.Counted(try! Image(width: width, height: height, pixels: bytes))
                #expect(ColourCensusTests.Counted(census: fast) == counted, "seed \(seed)")
                #expect(slow.reusedBlocks == 0)
                reused += fast.reusedBlocks
            }
        }
        #expect(reused > 1_000)  // the shortcut was taken
    }

    /// Rows of bytes (palette indices, or RGB/RGBA samples) behind a filter byte each, as the
    /// PNG writer hands them over.
    static func filteredRows(rowBytes: Int, height: Int, pixel: Int, seed: UInt64) -> [UInt8] {
        let width = rowBytes / pixel
        let pixels = slantedRows(width: width, height: height, seed: seed)
        var rows: [UInt8] = []
        var palette: [UInt32: UInt8] = [:]
        for y in 0..<height {
            rows.append(0)
            for x in 0..<width {
                let i = (y * width + x) * 4
                if pixel == 1 {
                    let word = pixels[i..<i + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                    rows.append(
                        palette[word]
                            ?? {
                                palette[word] = UInt8(palette.count % 256)
                                return palette[word]!
                            }())
                } else {
                    rows.append(contentsOf: pixels[i..<i + pixel])
                }
            }
        }
        return rows
    }

    @Test func runDeflateShortcutsGiveTheLongWaysStream() {
        var compressed = 0
        for seed in 1...300 {
            let pixel = [1, 3, 4][seed % 3]
            let width = [5, 16, 64, 256][seed % 4]
            let height = 1 + seed % 40
            let rows = Self.filteredRows(rowBytes: width * pixel, height: height, pixel: pixel, seed: UInt64(seed))
            let row = width * pixel + 1
            // A budget some streams exceed, so giving up is compared too.
            let budget = [rows.count / 16, rows.count / 64, rows.count][seed % 3]
            var outputs: [[UInt8]?] = []
            for shortcuts in [true, false] {
                var output = [UInt8](repeating: 0, count: RunDeflate.bound(rows.count))
                let size = rows.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer {
                        RunDeflate.compress(
                            input.baseAddress!, count: rows.count, row: row, pixel: pixel, literalBudget: budget,
                            into: $0.baseAddress!, shortcuts: shortcuts)
                    }
                }
                outputs.append(size.map { Array(output[0..<$0]) })
            }
            #expect(outputs[0] == outputs[1], "seed \(seed)")
            if outputs[0] != nil { compressed += 1 }
        }
        #expect(compressed > 100)
    }
}
