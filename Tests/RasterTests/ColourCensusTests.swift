import TestSupport
import Testing

@testable import Raster

/// The colour census against a plain count of every pixel: the colours and their palette
/// order, whether more than 256 are present, opacity, and how often the colour changes.
@Suite struct ColourCensusTests {
    /// What the census should find, counted pixel by pixel with a set.
    struct Counted: Equatable {
        var paletteOrder: [UInt32]?
        var opaque: Bool
        var changes: Int

        init(_ image: Image) {
            var seen = Set<UInt32>()
            var order: [UInt32] = []
            var opaque = true
            var changes = 0
            var previous: UInt32?
            image.withUnsafeBytes { bytes in
                for i in 0..<bytes.count / 4 {
                    // Bytes R, G, B, A as one little-endian word, as the encoder reads them.
                    let word = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[i * 4 + $1]) << (8 * $1) }
                    if bytes[i * 4 + 3] != 255 { opaque = false }
                    if let previous, previous != word { changes += 1 }
                    previous = word
                    if seen.insert(word).inserted { order.append(word) }
                }
            }
            paletteOrder = seen.count <= 256 ? order.filter { $0 >> 24 != 255 } + order.filter { $0 >> 24 == 255 } : nil
            self.opaque = opaque
            self.changes = changes
        }

        init(census: ColourCensus) {
            paletteOrder = census.fitsPalette ? census.colours : nil
            opaque = census.opaque
            changes = census.changes
        }
    }

    /// The census of the image's rows (equal rows compared as memory), and of its pixels as
    /// one long row: both must find what the count finds.
    static func census(_ image: Image) -> Counted {
        let byRows = image.withUnsafeBytes { Counted(census: ColourCensus($0, width: image.width)) }
        let asOneRow = image.withUnsafeBytes { Counted(census: ColourCensus($0)) }
        #expect(byRows == asOneRow)
        return byRows
    }

    /// Every pixel's palette index (8 bits) names its own colour.
    static func indicesNameTheColours(_ image: Image) -> Bool {
        image.withUnsafeBytes { bytes in
            let census = ColourCensus(bytes, width: image.width)
            guard census.fitsPalette else { return true }
            var indices = [UInt8](repeating: 0, count: image.width * image.height)
            indices.withUnsafeMutableBufferPointer {
                census.writeIndices(
                    of: bytes, width: image.width, height: image.height, bitDepth: 8, into: $0.baseAddress!,
                    rowBytes: image.width, stride: image.width)
            }
            return indices.indices.allSatisfy { i in
                census.colours[Int(indices[i])] == bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
            }
        }
    }

    @Test func realTilesMatchTheCount() throws {
        var palettes = 0
        var truecolour = 0
        for tile in try PNGLibdeflateTests.fixtureTiles() {
            let counted = Counted(tile)
            #expect(Self.census(tile) == counted)
            #expect(Self.indicesNameTheColours(tile))
            if counted.paletteOrder == nil { truecolour += 1 } else { palettes += 1 }
            // Cut to odd sizes, so rows end inside a block of eight pixels.
            let part = try tile.cropped(x: 3, y: 5, width: 13, height: 7)
            #expect(Self.census(part) == Counted(part))
            #expect(Self.indicesNameTheColours(part))
        }
        #expect(palettes > 0 && truecolour > 0)  // both outcomes were checked
    }

    /// Censuses one after the other take the tables of those before them, emptied of just the
    /// colours those filled: a census after one that filled the table (past 256 colours) or
    /// put colour 0 in it must find only its own colours, with the same indices.
    @Test func tablesTakenAgainAreEmpty() throws {
        func image(colours: Int, salt: UInt32) throws -> Image {
            let width = 32
            let height = (colours + width - 1) / width + 2
            var pixels: [UInt8] = []
            for i in 0..<width * height {
                let c = UInt32(i % colours) &* 0x9E37_79B1 ^ salt
                pixels +=
                    salt == 0 && i % colours == 0 ? [0, 0, 0, 0] : [UInt8(c & 0xFF), UInt8(c >> 8 & 0xFF), 9, 255]
            }
            return try Image(width: width, height: height, pixels: pixels)
        }
        for round in 0..<20 {
            let big = try image(colours: round % 2 == 0 ? 300 : 256, salt: UInt32(round))
            #expect(Self.census(big) == Counted(big))
            #expect(Self.indicesNameTheColours(big))
            let small = try image(colours: 3 + round, salt: UInt32(round &* 7 &+ 1))
            #expect(Self.census(small) == Counted(small))
            #expect(Self.indicesNameTheColours(small))
            let withZero = try image(colours: 5, salt: 0)
            #expect(Self.census(withZero) == Counted(withZero))
        }
        #expect(ColourCensus.idleTableCount > 0)
    }

    /// Colours that appear one by one between runs, past 256 at every position in a block of
    /// eight, and images too small for a block; runs shorter than a block, and longer (whole
    /// blocks of one colour, translucent ones too, which the census passes over).
    @Test(arguments: [1, 2, 7, 8, 9, 255, 256, 257, 300, 2_000], [3, 11])
    func syntheticImagesMatchTheCount(colours: Int, runLength: Int) throws {
        for width in [1, 5, 8, 17, 64] {
            for offset in 0..<8 {
                var random = Xorshift(state: UInt64(colours * 131 + width * 7 + offset + 1))
                let count = width * (colours * runLength / 3 / width + 3)
                var pixels: [UInt8] = []
                pixels.reserveCapacity(count * 4)
                for i in 0..<count {
                    // Runs of a few pixels, a new colour every run, cycling through `colours`.
                    let run = (i + offset) / runLength
                    let c = run % colours
                    let alpha: UInt8 = c % 5 == 0 ? UInt8(random.next() % 2) * 255 : 255
                    pixels += [UInt8(c & 0xFF), UInt8(c >> 8), 17, alpha]
                }
                let image = try Image(
                    width: width, height: count / width, pixels: Array(pixels.prefix(count / width * width * 4)))
                #expect(
                    Self.census(image) == Counted(image),
                    "\(colours) colours, runs of \(runLength), width \(width), offset \(offset)")
                #expect(Self.indicesNameTheColours(image))
            }
        }
    }

    /// A flat map crossed by grid lines: rows that repeat the row above (vertical lines),
    /// rows that do not (horizontal lines, a "label"), repeated rows whose first pixel
    /// differs from the last pixel of the row before, and new colours that first appear in a
    /// row after repeated ones; widths that end inside a block of eight, and palettes that
    /// pass 256 colours in a row after repeated rows.
    @Test(arguments: [5, 8, 13, 64, 256])
    func repeatedRowsMatchTheCount(width: Int) throws {
        for extraColours in [0, 3, 300] {
            var rows: [[UInt32]] = []
            let background: UInt32 = 0xFF_E1EF_F4
            let line: UInt32 = 0xFF_83_2A_10
            for y in 0..<40 {
                var row = [UInt32](repeating: background, count: width)
                // Vertical lines with an anti-aliased edge.
                for x in stride(from: 2, to: width, by: 11) {
                    row[x] = line
                    if x + 1 < width { row[x + 1] = 0xFF_A0_80_70 }
                }
                if y % 9 == 4 { row = row.map { _ in line } }  // a horizontal line
                if y == 20 { row[0] = 0xFF_00_00_01 }  // a row that starts differently, then repeats
                if y == 21 || y == 22 { row = rows[20] }
                if y == 30 {
                    // New colours after repeated rows, past 256 when asked.
                    for k in 0..<extraColours { row[k % width] = 0xFF_10_00_00 | UInt32(k) }
                }
                if y == 33 { row[width - 1] = 0x80_20_20_20 }  // translucent, at a row's end
                rows.append(row)
            }
            let pixels = rows.flatMap { $0 }.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (8 * $0)) } }
            let image = try Image(width: width, height: rows.count, pixels: pixels)
            #expect(Self.census(image) == Counted(image), "width \(width), \(extraColours) more colours")
            #expect(Self.indicesNameTheColours(image))
        }
    }
}
