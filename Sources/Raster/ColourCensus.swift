/// One pass over an image that answers what the encoder needs to choose a colour type and a
/// compression level: are there at most 256 distinct RGBA colours (and which), is every pixel
/// opaque, and how often the colour changes from one pixel to the next.
///
/// Colours are hashed as 32-bit words in a fixed 1024-slot open-addressing table (a load of
/// at most 1/4, so probes stay short), and runs of the same colour, the common case in map
/// tiles, skip the table entirely. Counting stops at the 257th colour; the rest of the image
/// is then only scanned for alpha.
final class ColourCensus {
    static let maxPaletteSize = 256
    private static let slotCount = 1024
    private static let shift: UInt32 = 22  // 32 - log2(slotCount)

    /// 0 marks an empty slot, otherwise the colour word with bit 32 set.
    private let keys: UnsafeMutablePointer<UInt64>
    private let indices: UnsafeMutablePointer<UInt8>
    /// Distinct colours in palette order once `census` has run (translucent ones first).
    private(set) var colours: [UInt32] = []
    /// False when the image has more than `maxPaletteSize` colours.
    private(set) var fitsPalette = true
    private(set) var opaque = true
    /// Pixels whose colour differs from the pixel before them in row-major order: few in flat
    /// images (a map of plain areas crossed by lines), many in detailed ones.
    private(set) var changes = 0

    init(_ pixels: UnsafeRawBufferPointer) {
        keys = .allocate(capacity: Self.slotCount)
        keys.initialize(repeating: 0, count: Self.slotCount)
        indices = .allocate(capacity: Self.slotCount)
        indices.initialize(repeating: 0, count: Self.slotCount)
        count(pixels)
    }

    deinit {
        keys.deallocate()
        indices.deallocate()
    }

    @inline(__always) private func slot(of colour: UInt32) -> Int {
        var slot = Int((colour &* 0x9E37_79B1) >> Self.shift)
        let key = UInt64(colour) | 1 << 32
        while keys[slot] != 0 && keys[slot] != key {
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return slot
    }

    private func count(_ pixels: UnsafeRawBufferPointer) {
        let total = pixels.count / 4
        guard total > 0, let base = pixels.baseAddress else { return }
        var alphaAnd: UInt32 = 0xFFFF_FFFF
        var last = UInt32(littleEndian: base.loadUnaligned(as: UInt32.self))
        _ = insert(last)  // the first colour always fits
        var changes = 0
        var i = 0
        while i < total {
            let p = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            alphaAnd &= p
            if p != last {
                last = p
                changes &+= 1
                if !insert(p) {
                    fitsPalette = false
                    i &+= 1
                    break
                }
            }
            i &+= 1
        }
        // Past 256 colours only opacity and changes matter.
        while i < total {
            let p = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            alphaAnd &= p
            if p != last {
                last = p
                changes &+= 1
            }
            i &+= 1
        }
        self.changes = changes
        opaque = alphaAnd >> 24 == 0xFF
        if fitsPalette { orderPalette() } else { colours = [] }
    }

    /// Adds a colour if new; false when it would be colour number 257.
    @inline(__always) private func insert(_ colour: UInt32) -> Bool {
        let s = slot(of: colour)
        if keys[s] != 0 { return true }
        if colours.count == Self.maxPaletteSize { return false }
        keys[s] = UInt64(colour) | 1 << 32
        colours.append(colour)
        return true
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
    /// bytes per row, rows `stride` bytes apart.
    func writeIndices(
        of pixels: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int,
        into output: UnsafeMutablePointer<UInt8>, rowBytes: Int, stride: Int
    ) {
        guard let base = pixels.baseAddress, fitsPalette, !colours.isEmpty else { return }
        var last = colours[0]
        var lastIndex = indices[slot(of: last)]
        let perByte = 8 / bitDepth
        for y in 0..<height {
            let row = output + y * stride
            if bitDepth == 8 {
                for x in 0..<width {
                    let p = UInt32(
                        littleEndian: base.loadUnaligned(fromByteOffset: (y &* width &+ x) &* 4, as: UInt32.self))
                    if p != last {
                        last = p
                        lastIndex = indices[slot(of: p)]
                    }
                    row[x] = lastIndex
                }
            } else {
                row.initialize(repeating: 0, count: rowBytes)
                for x in 0..<width {
                    let p = UInt32(
                        littleEndian: base.loadUnaligned(fromByteOffset: (y &* width &+ x) &* 4, as: UInt32.self))
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

extension Image {
    /// The distinct colours of the image in the order an exact PNG palette would hold them
    /// (translucent first, then by first appearance), or nil when there are more than 256.
    public var paletteColours: [RGBA]? {
        withUnsafeBytes { pixels in
            let census = ColourCensus(pixels)
            return census.fitsPalette ? census.colours.map { RGBA(packed: $0) } : nil
        }
    }
}
