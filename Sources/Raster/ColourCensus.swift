import CPrefetch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One pass over an image that answers what the encoder needs to choose a colour type and a
/// compression level: are there at most 256 distinct RGBA colours (and which), is every pixel
/// opaque, and how often the colour changes from one pixel to the next.
///
/// Colours are hashed as 32-bit words in a fixed 1024-slot open-addressing table (a load of
/// at most 1/4, so probes stay short), and runs of the same colour, the common case in map
/// tiles, skip the table entirely. Counting stops at the 257th colour; the rest of the image
/// is then only scanned for alpha and changes.
///
/// While counting it also notes each pixel's palette index (its colour's order of first
/// appearance, which is the palette order when every colour is opaque): `writeIndices` then
/// copies rows instead of reading every pixel and its colour's slot again, which cost as much
/// as the count itself in tiles crossed by grid lines.
final class ColourCensus {
    static let maxPaletteSize = 256
    private static let slotCount = 1024
    private static let shift: UInt32 = 22  // 32 - log2(slotCount)

    /// 0 marks an empty slot, otherwise the colour word with bit 32 set.
    private let keys: UnsafeMutablePointer<UInt64>
    /// A used slot's palette index (read only where `keys` has the slot: never cleared).
    private let indices: UnsafeMutablePointer<UInt8>
    /// The slots filled, in order (at most `maxPaletteSize`, one a palette colour, noted as
    /// they fill: the palette, a local while counting, is all that knows how many), so that
    /// `deinit` empties just those.
    private let filled: UnsafeMutablePointer<UInt16>
    private var filledCount = 0
    private let table: UnsafeMutableRawPointer

    /// Bytes of one census's tables: the keys, the filled slots' numbers, the indices.
    private static let tableBytes = slotCount * 8 + maxPaletteSize * 2 + slotCount
    /// Tables of finished censuses, their keys all empty again. A new census's table was
    /// allocated and its 8 KB of keys cleared (glibc's memset clears that much with
    /// `rep stosb`: some 8,000 instructions by callgrind's count, a tile's census), and the
    /// keys filled are at most 256 (a grid tile's some 100): emptying those is cheaper.
    /// Bounded by the threads encoding at once.
    private static let idleTables = Mutex<[IdleTable]>([])
    /// An idle table: no census uses it, so any thread may take it.
    private struct IdleTable: @unchecked Sendable { let base: UnsafeMutableRawPointer }
    private static let maxIdleTables = 64
    /// Idle tables (tests).
    static var idleTableCount: Int { idleTables.withLock { $0.count } }
    /// Distinct colours in palette order once `census` has run (translucent ones first).
    private(set) var colours: [UInt32] = []
    /// False when the image has more than `maxPaletteSize` colours.
    private(set) var fitsPalette = true
    private(set) var opaque = true
    /// Pixels whose colour differs from the pixel before them in row-major order: few in flat
    /// images (a map of plain areas crossed by lines), many in detailed ones.
    private(set) var changes = 0
    /// Every pixel's 8-bit palette index in pixel order, each row after a byte 0 (`indexRows`),
    /// noted while counting; nil when the image does not fit a palette, has translucent colours
    /// (the palette order is then not the order of appearance) or is larger than
    /// `maxNotedPixels`.
    private var noted: UnsafeMutablePointer<UInt8>?
    private var notedWidth = 0
    private var notedHeight = 0

    /// The image data of a PNG of 8-bit palette indices whose rows all have filter type none
    /// (0): each row's filter byte, then its pixels' indices, `height * (width + 1)` bytes,
    /// while the census lives; nil when no indices were noted. The indices are noted in this
    /// layout so that such a PNG is compressed from them, not from a copy (copying them row
    /// by row cost some 20,000 instructions a tile, 13 M over the New York MGRS pyramid).
    var indexRows: UnsafeRawBufferPointer? {
        noted.map { UnsafeRawBufferPointer(start: $0, count: notedHeight &* (notedWidth &+ 1)) }
    }

    /// Images up to this many pixels (a 1024 x 1024 tile) have their indices noted: a byte a
    /// pixel, bounded whatever the image.
    static let maxNotedPixels = 1 << 20

    /// Bytes from the start of one row of the counted pixels to the next (`writeIndices`
    /// reads them again when no indices were noted).
    private let rowStride: Int
    /// Blocks of eight pixels equal to those above take the row above's notes (see `count`).
    private let reusesRowAbove: Bool
    /// How many blocks did (tests: the path is taken).
    private(set) var reusedBlocks = 0
    /// Past 256 colours, pixels are compared eight at once with AVX2 where the processor has
    /// it (`colourruns.h`), else with the `SIMD8` loop in `countRows`.
    private let comparesWide: Bool

    /// Whether the processor has AVX2 (asked once).
    static let hasAVX2: Bool = {
        #if arch(x86_64)
            meridian_has_avx2() != 0
        #else
            false
        #endif
    }()

    /// `width`: pixels per row, when the pixels are rows one after the other (rows equal to the
    /// row above are then compared as memory); 0 when unknown.
    convenience init(_ pixels: UnsafeRawBufferPointer, width: Int = 0) {
        let total = pixels.count / 4
        // Without a width (or a bad one) the image is one long row: no row is compared.
        let rowLength = width > 0 && total % width == 0 ? width : total
        self.init(rows: pixels, width: rowLength, height: rowLength > 0 ? total / rowLength : 0, stride: rowLength * 4)
    }

    /// Counts `height` rows of `width` pixels, `stride` bytes apart: a tile read in place from
    /// the metatile it was drawn in, whose rows are those of the whole metatile apart. Copying
    /// each tile out to count and encode it cost the New York MGRS pyramid more CPU time than
    /// its instructions showed (a memmove of 256 KB a tile, nearly every tile crossed by the grid).
    ///
    /// `reusingBlocks` false counts the blocks of a row that differs from the row above
    /// pixel by pixel even where they equal the blocks above (tests: both ways, one answer).
    ///
    /// `wideCompares` false counts past 256 colours with the `SIMD8` loop even where AVX2 is
    /// there (tests: both ways, one answer).
    init(
        rows pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, reusingBlocks: Bool = true,
        wideCompares: Bool = hasAVX2
    ) {
        precondition(
            width >= 0 && height >= 0 && stride >= width * 4
                && (width == 0 || height == 0 || pixels.count >= (height - 1) * stride + width * 4))
        let idle = Self.idleTables.withLock { $0.popLast()?.base }
        let table = idle ?? UnsafeMutableRawPointer.allocate(byteCount: Self.tableBytes, alignment: 8)
        self.table = table
        keys = table.bindMemory(to: UInt64.self, capacity: Self.slotCount)
        if idle == nil { keys.initialize(repeating: 0, count: Self.slotCount) }
        filled = (table + Self.slotCount * 8).bindMemory(to: UInt16.self, capacity: Self.maxPaletteSize)
        indices = (table + Self.slotCount * 8 + Self.maxPaletteSize * 2).bindMemory(
            to: UInt8.self, capacity: Self.slotCount)
        rowStride = stride
        reusesRowAbove = reusingBlocks
        comparesWide = wideCompares
        if let base = pixels.baseAddress, width > 0, height > 0 {
            count(base, width: width, height: height, stride: stride)
        }
    }

    deinit {
        noted?.deallocate()
        for k in 0..<filledCount { keys[Int(filled[k])] = 0 }
        let kept = Self.idleTables.withLock { idle in
            guard idle.count < Self.maxIdleTables else { return false }
            idle.append(IdleTable(base: table))
            return true
        }
        if !kept { table.deallocate() }
    }

    @inline(__always) private func slot(of colour: UInt32) -> Int {
        var slot = Int((colour &* 0x9E37_79B1) >> Self.shift)
        let key = UInt64(colour) | 1 << 32
        while keys[slot] != 0 && keys[slot] != key {
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return slot
    }

    /// Eight pixels, compared at once with the eight before them.
    private typealias Block = SIMD8<UInt32>

    /// Scans the pixels row by row: a row equal to the row above (most rows of a map tile
    /// crossed by grid lines: those between its horizontal lines and labels) is compared as
    /// memory and its notes copied, with no colour looked at; other rows eight pixels at a
    /// time: a block whose pixels all equal their predecessors (most of a map tile) costs a
    /// few word compares and no table probe; past 256 colours, changes are counted lane by
    /// lane without branches.
    ///
    /// The blocks are compared as four 64-bit words (two pixels each), not as `SIMD8`s, and
    /// the palette being filled is a local, not the class's stored property, which Swift
    /// checked for exclusive access at every colour change: over the 641 flat palette tiles of
    /// the New York MGRS pyramid (the census alone, callgrind) 0.27 G instructions instead of
    /// 0.40 G, the same answers.
    private func count(_ base: UnsafeRawPointer, width rowLength: Int, height: Int, stride: Int) {
        // Two copies of the body, one for each value of `noting` (a constant in each): noting,
        // as nearly always, the mask of every note's offset and the notes' move each row fold
        // away, and the loop keeps one value fewer (the moving notes cost 5 M instructions
        // more over the New York MGRS pyramid with the mask a variable).
        if rowLength &* height <= Self.maxNotedPixels {
            countRows(base, width: rowLength, height: height, stride: stride, noting: true)
        } else {
            countRows(base, width: rowLength, height: height, stride: stride, noting: false)
        }
    }

    /// `count`'s body; `noting` when the indices are noted (at most `maxNotedPixels`).
    @inline(__always)
    private func countRows(_ base: UnsafeRawPointer, width rowLength: Int, height: Int, stride: Int, noting: Bool) {
        let total = rowLength &* height
        // Pixel i of a row lies at `rowBase + i * 4`: the row's first pixel (pixel `rowStart`)
        // at `base + y * stride`, so `rowBase` is `base + y * skew`, at or after `base`. Packed
        // rows have no skew and one base throughout.
        let skew = stride &- rowLength &* 4
        var rowBase = base
        @inline(__always) func pixel(_ i: Int, _ at: UnsafeRawPointer) -> UInt32 {
            UInt32(littleEndian: at.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
        }
        @inline(__always) func block(_ i: Int, _ at: UnsafeRawPointer) -> Block {
            at.loadUnaligned(fromByteOffset: i &* 4, as: Block.self)
        }
        // Indices are noted one byte a pixel (8 more for a block's whole-word store); past
        // `maxNotedPixels` every note lands in the first 8 bytes and none is kept. Each row's
        // notes follow a byte for its PNG filter type (`indexRows`): pixel i of a row is noted
        // at `notes + i`, and `notes` moves on a byte a row (`1 & mask`: not when not noting).
        // One pointer that moves, not a second one beside the allocation's start: another
        // live value in the loop cost 8 M instructions over the New York MGRS pyramid.
        let allocated = UnsafeMutablePointer<UInt8>.allocate(capacity: noting ? total &+ height &+ 8 : 16)
        let mask = noting ? Int.max : 0
        var notes = allocated + (1 & mask)
        var palette: [UInt32] = []
        palette.reserveCapacity(Self.maxPaletteSize)
        var fits = true
        var index = insert(pixel(0, base), into: &palette) ?? 0  // the first colour always fits
        notes[0] = index
        // Byte-wise AND of every pixel (byte order does not matter to it until the end).
        var alphaAnd = UInt64(base.loadUnaligned(as: UInt32.self)) &* 0x1_0000_0001
        var changes = 0
        var i = 1  // pixel i is compared with pixel i - 1
        // Eight pixels all equal their predecessors exactly when they all equal the pixel
        // before them: compared with that pixel twice in a word, kept while the colour lasts
        // (four loads a block, not eight). Such a block adds nothing to the alpha AND either:
        // its colour is already in it.
        var pair = UInt64(base.loadUnaligned(as: UInt32.self)) &* 0x1_0000_0001
        var indexBytes = UInt64(index) &* 0x0101_0101_0101_0101
        // Changes within the row above (not counting its first pixel's).
        var rowAboveChanges = 0
        var reused = 0
        var rowEnd = 0
        // Rows are asked for `prefetchRows` ahead of the row counted (see `prefetchRows`).
        let rowBytes = rowLength &* 4
        var rowAhead = 0
        while rowAhead < Swift.min(Self.prefetchRows, height) {
            Self.prefetch(base, row: rowAhead, stride: stride, bytes: rowBytes)
            rowAhead &+= 1
        }
        rows: while fits && rowEnd < total {
            let rowStart = rowEnd
            rowEnd &+= rowLength
            if rowAhead < height {
                Self.prefetch(base, row: rowAhead, stride: stride, bytes: rowBytes)
                rowAhead &+= 1
            }
            // Where pixel rowStart - 1, the last of the row above, is read from.
            let above = rowBase
            if rowStart > 0 {
                rowBase += skew
                notes += 1 & mask
            }
            if rowStart > 0 && noting
                && memcmp(rowBase + rowStart &* 4, above + (rowStart &- rowLength) &* 4, rowLength &* 4) == 0
            {
                // The row above again: no new colour or alpha, the same changes within it,
                // the same indices.
                if pixel(rowStart, rowBase) != pixel(rowStart &- 1, above) { changes &+= 1 }
                changes &+= rowAboveChanges
                // (Noting: the row above's notes are a byte back.)
                (notes + rowStart).update(from: notes + (rowStart &- rowLength &- 1), count: rowLength)
                index = notes[rowEnd &- 1]
                indexBytes = UInt64(index) &* 0x0101_0101_0101_0101
                pair =
                    UInt64(rowBase.loadUnaligned(fromByteOffset: (rowEnd &- 1) &* 4, as: UInt32.self))
                    &* 0x1_0000_0001
                i = rowEnd
                continue
            }
            let changesBefore = changes
            while i &+ 8 <= rowEnd {
                i = Self.skipBlocks(
                    rowBase, from: i, to: rowEnd, of: pair, notes: notes, mask: mask, index: indexBytes)
                guard i &+ 8 <= rowEnd else { break }
                if rowStart > 0 && noting && reusesRowAbove
                    && Self.equalBlocks(rowBase + i &* 4, above + (i &- rowLength) &* 4)
                {
                    // The block above again (a line's pixels where the row as a whole differs,
                    // since a slanted line elsewhere moved): no new colour or alpha, the same
                    // notes, and the same changes within it, read from those notes (equal
                    // indices are equal colours); only its first pixel's change is its own.
                    let blockNotes = notes + i
                    blockNotes.update(from: notes + (i &- rowLength &- 1), count: 8)
                    let before = i == rowStart ? above : rowBase
                    if pixel(i, rowBase) != pixel(i &- 1, before) { changes &+= 1 }
                    changes &+= Self.changesWithin(UnsafeRawPointer(blockNotes).loadUnaligned(as: UInt64.self))
                    reused &+= 1
                    index = blockNotes[7]
                    indexBytes = UInt64(index) &* 0x0101_0101_0101_0101
                    pair =
                        UInt64(rowBase.loadUnaligned(fromByteOffset: (i &+ 7) &* 4, as: UInt32.self)) &* 0x1_0000_0001
                    i &+= 8
                    continue
                }
                pair =
                    UInt64(rowBase.loadUnaligned(fromByteOffset: (i &+ 7) &* 4, as: UInt32.self)) &* 0x1_0000_0001
                let before = i == rowStart ? above : rowBase
                var previous = pixel(i &- 1, before)
                var previousPair =
                    UInt64(before.loadUnaligned(fromByteOffset: (i &- 1) &* 4, as: UInt32.self)) &* 0x1_0000_0001
                // The alpha AND of the block is taken pair by pair, not from the four words
                // compared above: kept for it, they were spilled to the stack in every block.
                var blockAnd = ~UInt64(0)
                // Pairs of pixels: a line crossing the block takes one or two of its four, and
                // a pair of the colour before it is two notes of its index.
                for lane in Swift.stride(from: 0, to: 8, by: 2) {
                    let two = rowBase.loadUnaligned(fromByteOffset: (i &+ lane) &* 4, as: UInt64.self)
                    if two == previousPair {
                        UnsafeMutableRawPointer(notes + ((i &+ lane) & mask)).storeBytes(
                            of: UInt16(index) &* 0x0101, as: UInt16.self)
                        continue
                    }
                    blockAnd &= two
                    var raw: UInt32 = 0
                    for k in 0..<2 {
                        raw = rowBase.loadUnaligned(fromByteOffset: (i &+ lane &+ k) &* 4, as: UInt32.self)
                        let p = UInt32(littleEndian: raw)
                        if p != previous {
                            changes &+= 1
                            previous = p
                            if fits {
                                if let found = insert(p, into: &palette) { index = found } else { fits = false }
                            }
                        }
                        notes[(i &+ lane &+ k) & mask] = index
                    }
                    previousPair = UInt64(raw) &* 0x1_0000_0001
                }
                alphaAnd &= blockAnd
                indexBytes = UInt64(index) &* 0x0101_0101_0101_0101
                i &+= 8
                if !fits { break rows }
            }
            // The row's last pixels one by one.
            while i < rowEnd {
                let p = pixel(i, rowBase)
                alphaAnd &= UInt64(rowBase.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)) &* 0x1_0000_0001
                if p != pixel(i &- 1, i == rowStart ? above : rowBase) {
                    changes &+= 1
                    if let found = insert(p, into: &palette) { index = found } else { fits = false }
                }
                if fits { notes[i & mask] = index }
                i &+= 1
                if !fits { break rows }
            }
            indexBytes = UInt64(index) &* 0x0101_0101_0101_0101
            pair =
                UInt64(rowBase.loadUnaligned(fromByteOffset: (rowEnd &- 1) &* 4, as: UInt32.self)) &* 0x1_0000_0001
            rowAboveChanges = changes &- changesBefore
            if rowStart > 0 && pixel(rowStart, rowBase) != pixel(rowStart &- 1, above) { rowAboveChanges &-= 1 }
        }
        // Past 256 colours only opacity and changes matter: each lane counts its own, the rest
        // of the row where counting stopped and every row after it. A row's first pixel, whose
        // predecessor ends the row above, is taken alone.
        //
        // The lanes count pixels equal to their predecessors, and the changes are the pixels
        // compared less those: the compiler takes a lane's count from the compare's mask in
        // one vector instruction, where counting the changes took a second to turn it around
        // (this loop over the New York MGRS pyramid, callgrind: 19 instructions a block, 31.1 M,
        // then 15, 24.6 M).
        var laneEquals = Block(repeating: 0)
        var laneBlocks = 0
        var lanesAnd = Block(repeating: ~0)
        var lastAnd = ~UInt32(0)
        if !fits {
            let wideCompares = comparesWide
            while true {
                if i == rowEnd &- rowLength {
                    let p = pixel(i, rowBase)
                    lastAnd &= p
                    if p != pixel(i &- 1, rowBase - skew) { changes &+= 1 }
                    i &+= 1
                }
                if wideCompares {
                    // Eight pixels an instruction (AVX2, `colourruns.h`).
                    #if arch(x86_64)
                        changes &+= (rowEnd &- i) &- meridian_equal_neighbours_avx2(rowBase, i, rowEnd, &lastAnd)
                        i = rowEnd
                    #endif
                }
                let blocksFrom = i
                while i &+ 8 <= rowEnd {
                    let current = block(i, rowBase)
                    lanesAnd &= current
                    laneEquals &+= Block(repeating: 0).replacing(with: 1, where: current .== block(i &- 1, rowBase))
                    i &+= 8
                }
                laneBlocks &+= (i &- blocksFrom) >> 3
                // The row's last pixels one by one.
                while i < rowEnd {
                    let p = pixel(i, rowBase)
                    lastAnd &= p
                    if p != pixel(i &- 1, rowBase) { changes &+= 1 }
                    i &+= 1
                }
                guard rowEnd < total else { break }
                rowEnd &+= rowLength
                rowBase += skew
                if rowAhead < height {
                    Self.prefetch(base, row: rowAhead, stride: stride, bytes: rowBytes)
                    rowAhead &+= 1
                }
            }
        }
        let and4 = lanesAnd[0] & lanesAnd[1] & lanesAnd[2] & lanesAnd[3]
        alphaAnd &= UInt64(and4 & lanesAnd[4] & lanesAnd[5] & lanesAnd[6] & lanesAnd[7]) &* 0x1_0000_0001
        var andAll = UInt32(truncatingIfNeeded: alphaAnd) & UInt32(truncatingIfNeeded: alphaAnd >> 32)
        andAll = UInt32(littleEndian: andAll) & lastAnd
        var equals = 0
        for lane in 0..<8 { equals &+= Int(laneEquals[lane]) }
        self.changes = changes &+ laneBlocks &* 8 &- equals
        reusedBlocks = reused
        opaque = andAll >> 24 == 0xFF
        fitsPalette = fits
        filledCount = palette.count
        colours = fits ? palette : []
        // Every colour opaque: the order of appearance is already the palette's (the two
        // filters and the slots looked up again cost some 6,000 instructions a tile).
        if fits && !opaque { orderPalette() }
        // Order of appearance is the palette order when no colour is translucent.
        if noting && fits && translucentCount == 0 {
            // Filter type 0 (none) before each row.
            for y in 0..<height { allocated[y &* (rowLength &+ 1)] = 0 }
            noted = allocated
            notedWidth = rowLength
            notedHeight = height
        } else {
            allocated.deallocate()
        }
    }

    /// How many rows ahead of the row being counted its pixels are asked for.
    ///
    /// Why: the census is the first to read a tile's rows since they were drawn, and a tile of
    /// a metatile has its rows 8 KB apart, each 1 KB a fresh run of cache lines; the rows'
    /// loads (the compare with the row above, the first block of a row) waited on memory (a
    /// cpu-clock profile of the New York MGRS pyramid, whose grid lines leave few tiles of one
    /// colour). Four rows ahead is 64 cache lines of a 256-pixel tile in flight. The hint
    /// changes nothing counted.
    static let prefetchRows = 4

    /// Asks for the cache lines of row `row` (`bytes` bytes at `base + row * stride`).
    @inline(__always)
    private static func prefetch(_ base: UnsafeRawPointer, row: Int, stride: Int, bytes: Int) {
        meridian_prefetch_span(base, row &* stride, bytes, 0)
    }

    /// Skips the blocks of eight pixels from pixel `i` on that equal `pair` (the pixel before
    /// them, twice) up to `end`, noting `index` (their index, eight times) for each; the first
    /// pixel not skipped. Most of a flat tile.
    ///
    /// A function of its own, not inlined: in the census's loop, with its many live values,
    /// the pair and the block's words went through the stack at every block.
    ///
    /// On x86-64 the blocks are compared four pixels an instruction (SSE2, `colourruns.h`):
    /// some 10 instructions a block instead of 17 (the four word compares below), which were
    /// 52 M over the New York MGRS pyramid's tiles.
    @inline(never)
    static func skipBlocks(
        _ base: UnsafeRawPointer, from i: Int, to end: Int, of pair: UInt64, notes: UnsafeMutablePointer<UInt8>,
        mask: Int, index: UInt64
    ) -> Int {
        #if arch(x86_64)
            meridian_skip_colour_blocks(
                base, i, end, UInt32(truncatingIfNeeded: pair), notes, mask, UInt8(truncatingIfNeeded: index))
        #else
            skipBlocksInWords(base, from: i, to: end, of: pair, notes: notes, mask: mask, index: index)
        #endif
    }

    /// `skipBlocks` with 64-bit words (other architectures; tests: both ways, one answer).
    @inline(__always)
    static func skipBlocksInWords(
        _ base: UnsafeRawPointer, from i: Int, to end: Int, of pair: UInt64, notes: UnsafeMutablePointer<UInt8>,
        mask: Int, index: UInt64
    ) -> Int {
        @inline(__always) func flat(_ i: Int) -> Bool {
            let p = base + i &* 4
            return p.loadUnaligned(as: UInt64.self) == pair
                && p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == pair
                && p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == pair
                && p.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == pair
        }
        @inline(__always) func note(_ i: Int) {
            UnsafeMutableRawPointer(notes + (i & mask)).storeBytes(of: index, as: UInt64.self)
        }
        var i = i
        // Two blocks a turn: half the loop's own instructions.
        while i &+ 16 <= end {
            guard flat(i) else { return i }
            note(i)
            guard flat(i &+ 8) else { return i &+ 8 }
            note(i &+ 8)
            i &+= 16
        }
        if i &+ 8 <= end && flat(i) {
            note(i)
            i &+= 8
        }
        return i
    }

    /// Whether the 8 pixels (32 bytes) at `a` equal those at `b`.
    @inline(__always)
    private static func equalBlocks(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        let x0 = a.loadUnaligned(as: UInt64.self) ^ b.loadUnaligned(as: UInt64.self)
        let x1 =
            a.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let x2 =
            a.loadUnaligned(fromByteOffset: 16, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        let x3 =
            a.loadUnaligned(fromByteOffset: 24, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        return x0 | x1 | x2 | x3 == 0
    }

    /// Of 8 palette indices (a little-endian word, pixel k in byte k), how many differ from
    /// the one before them within the word (pixels 1 to 7).
    @inline(__always)
    static func changesWithin(_ indices: UInt64) -> Int {
        let x = indices ^ (indices >> 8)  // byte k: pixel k against pixel k + 1, for k < 7
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // The high bit of each byte that is not zero, exactly (no carry crosses bytes).
        let nonzero = (((x & low) &+ low) | x) & 0x0080_8080_8080_8080
        // The seven bits as ones in their bytes, summed into the top byte.
        return Int(((nonzero >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// Adds a colour to `palette` if new; its index in order of appearance, or nil when it
    /// would be colour number 257.
    @inline(__always) private func insert(_ colour: UInt32, into palette: inout [UInt32]) -> UInt8? {
        let s = slot(of: colour)
        if keys[s] != 0 { return indices[s] }
        if palette.count == Self.maxPaletteSize { return nil }
        keys[s] = UInt64(colour) | 1 << 32
        indices[s] = UInt8(truncatingIfNeeded: palette.count)
        filled[palette.count] = UInt16(truncatingIfNeeded: s)
        palette.append(colour)
        return indices[s]
    }

    /// Translucent colours first, each group in order of first appearance: tRNS then only
    /// needs entries up to the last translucent one. The order depends only on the pixels,
    /// which keeps the output deterministic.
    private func orderPalette() {
        colours = colours.filter { $0 >> 24 != 0xFF } + colours.filter { $0 >> 24 == 0xFF }
        for (index, colour) in colours.enumerated() {
            indices[slot(of: colour)] = UInt8(index)
        }
    }

    /// Count of leading palette entries that need a tRNS alpha.
    var translucentCount: Int { colours.prefix { $0 >> 24 != 0xFF }.count }

    /// Smallest PNG bit depth that holds every index.
    var indexBitDepth: Int {
        switch colours.count {
        case ...2: return 1
        case ...4: return 2
        case ...16: return 4
        default: return 8
        }
    }

    /// Writes the palette index of every pixel, packed `bitDepth` bits per pixel with the
    /// leftmost pixel in the high bits (PNG's layout), each row starting on a byte: `rowBytes`
    /// bytes per row, rows `stride` bytes apart. `pixels` are those counted, rows as far apart
    /// as they were then.
    func writeIndices(
        of pixels: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int,
        into output: UnsafeMutablePointer<UInt8>, rowBytes: Int, stride: Int
    ) {
        guard let base = pixels.baseAddress, fitsPalette, !colours.isEmpty else { return }
        if let noted {
            copyNoted(
                noted, width: width, height: height, bitDepth: bitDepth, into: output, rowBytes: rowBytes,
                stride: stride)
            return
        }
        var last = colours[0]
        var lastIndex = indices[slot(of: last)]
        let perByte = 8 / bitDepth
        for y in 0..<height {
            let row = output + y * stride
            if bitDepth == 8 {
                var x = 0
                while x < width {
                    let offset = y &* rowStride &+ x &* 4
                    // Eight pixels of the last colour (most of a map tile): eight copies of its
                    // index. Compared as four pairs of pixels in 64-bit words, which compiles to
                    // plain loads and compares (SIMD8's `==` did not, and cost more than it saved).
                    var stop = x &+ 1
                    if x &+ 8 <= width {
                        let pair = UInt64(last.littleEndian) &* 0x1_0000_0001
                        let a = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        let b = base.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                        let c = base.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self)
                        let d = base.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self)
                        if (a ^ pair) | (b ^ pair) | (c ^ pair) | (d ^ pair) == 0 {
                            UnsafeMutableRawPointer(row + x).storeBytes(
                                of: UInt64(lastIndex) &* 0x0101_0101_0101_0101, as: UInt64.self)
                            x &+= 8
                            continue
                        }
                        stop = x &+ 8  // not all the last colour: these eight one by one
                    }
                    while x < stop {
                        let p = UInt32(
                            littleEndian: base.loadUnaligned(fromByteOffset: y &* rowStride &+ x &* 4, as: UInt32.self))
                        if p != last {
                            last = p
                            lastIndex = indices[slot(of: p)]
                        }
                        row[x] = lastIndex
                        x &+= 1
                    }
                }
            } else {
                row.initialize(repeating: 0, count: rowBytes)
                for x in 0..<width {
                    let p = UInt32(
                        littleEndian: base.loadUnaligned(fromByteOffset: y &* rowStride &+ x &* 4, as: UInt32.self))
                    if p != last {
                        last = p
                        lastIndex = indices[slot(of: p)]
                    }
                    let shift = 8 - bitDepth * (x % perByte + 1)
                    row[x / perByte] |= lastIndex << shift
                }
            }
        }
    }
}

extension ColourCensus {
    /// Rows of the indices noted while counting, packed `bitDepth` bits a pixel.
    private func copyNoted(
        _ noted: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bitDepth: Int,
        into output: UnsafeMutablePointer<UInt8>, rowBytes: Int, stride: Int
    ) {
        for y in 0..<height {
            let row = output + y &* stride
            let source = noted + (y &* (width &+ 1) &+ 1)
            switch bitDepth {
            case 8: row.update(from: source, count: width)
            case 4: Self.pack(source, count: width, bits: 4, into: row)
            case 2: Self.pack(source, count: width, bits: 2, into: row)
            default: Self.pack(source, count: width, bits: 1, into: row)
            }
        }
    }

    /// Packs `count` indices of at most `bits` bits (1, 2 or 4) into bytes, the leftmost in
    /// the high bits, the last byte padded with zeros.
    ///
    /// Eight indices are read as one word and folded in place (each step joins neighbouring
    /// fields): a division, a remainder and a read-modify-write of the output byte for every
    /// pixel cost some 25 instructions a pixel, 20 M over the few tiles of at most 16 colours
    /// in the New York MGRS pyramid.
    @inline(__always)
    static func pack(_ source: UnsafePointer<UInt8>, count: Int, bits: Int, into row: UnsafeMutablePointer<UInt8>) {
        let perByte = 8 / bits
        var x = 0
        var out = row
        while x &+ 8 <= count {
            // Byte k of the word is pixel x + k. Joining pairs puts pixel 2j in the high field
            // of 16-bit lane j, then pairs of those in 32-bit lanes, then the two halves.
            var w = UInt64(littleEndian: UnsafeRawPointer(source + x).loadUnaligned(as: UInt64.self))
            switch bits {
            case 4:
                // Byte 2j is output byte j; then the bytes between them are closed up.
                w = (w & 0x00FF_00FF_00FF_00FF) << 4 | (w >> 8) & 0x00FF_00FF_00FF_00FF
                w = (w | w >> 8) & 0x0000_FFFF_0000_FFFF
                w |= w >> 16
                UnsafeMutableRawPointer(out).storeBytes(of: UInt32(truncatingIfNeeded: w).littleEndian, as: UInt32.self)
                out += 4
            case 2:
                w = (w & 0x00FF_00FF_00FF_00FF) << 2 | (w >> 8) & 0x00FF_00FF_00FF_00FF
                w = (w & 0x0000_FFFF_0000_FFFF) << 4 | (w >> 16) & 0x0000_FFFF_0000_FFFF
                out[0] = UInt8(truncatingIfNeeded: w)
                out[1] = UInt8(truncatingIfNeeded: w >> 32)
                out += 2
            default:
                w = (w & 0x00FF_00FF_00FF_00FF) << 1 | (w >> 8) & 0x00FF_00FF_00FF_00FF
                w = (w & 0x0000_FFFF_0000_FFFF) << 2 | (w >> 16) & 0x0000_FFFF_0000_FFFF
                w = (w & 0x0000_0000_FFFF_FFFF) << 4 | w >> 32
                out[0] = UInt8(truncatingIfNeeded: w)
                out += 1
            }
            x &+= 8
        }
        // The last pixels, fewer than eight.
        while x < count {
            var byte: UInt8 = 0
            for k in 0..<perByte {
                byte <<= UInt8(bits)
                if x &+ k < count { byte |= source[x &+ k] }
            }
            out.pointee = byte
            out += 1
            x &+= perByte
        }
    }
}

extension Image {
    /// The distinct colours of the image in the order an exact PNG palette would hold them
    /// (translucent first, then by first appearance), or nil when there are more than 256.
    public var paletteColours: [RGBA]? {
        withUnsafeBytes { pixels in
            let census = ColourCensus(pixels, width: width)
            return census.fitsPalette ? census.colours.map { RGBA(packed: $0) } : nil
        }
    }
}
