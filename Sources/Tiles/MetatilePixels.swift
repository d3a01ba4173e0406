import CXXHash
import Foundation
import Raster

/// A drawn metatile's pixels, borrowed for the time its tiles are cut: 4 bytes a pixel, rows
/// `stride` bytes apart, in one of two layouts. A renderer hands over what it drew without
/// converting it, so the job converts only the tiles it has not already encoded (at zoom 0-6
/// of the world most tiles repeat another: open ocean, plain land).
public struct MetatilePixels {
    public enum Layout: Sendable {
        /// Straight RGBA bytes, as `Image` holds them.
        case rgba
        /// Cairo's ARGB32: native-endian words 0xAARRGGBB, colour premultiplied by alpha.
        case premultipliedARGB32
    }

    public let bytes: UnsafeRawBufferPointer
    public let width: Int
    public let height: Int
    public let stride: Int
    public let layout: Layout
    /// For each tile, row by row, whether the renderer drew nothing in it but the map's
    /// background (`MapRenderer.plainRegions`): it is then one colour, known without
    /// comparing its rows (most tiles of a world pyramid are open ocean, each 256 KB to read).
    /// nil, or a count other than the tiles', when the renderer does not say.
    public var plainTiles: [Bool]?

    public init(bytes: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int, layout: Layout) {
        precondition(
            width >= 0 && height >= 0 && stride >= width * 4
                && (height == 0 || bytes.count >= (height - 1) * stride + width * 4))
        self.bytes = bytes
        self.width = width
        self.height = height
        self.stride = stride
        self.layout = layout
    }

    /// The square tile whose top-left pixel is (`x`, `y`).
    func tile(x: Int, y: Int, side: Int) -> TilePixels {
        precondition(x >= 0 && y >= 0 && x + side <= width && y + side <= height)
        var plain = false
        if let plainTiles, side > 0, width % side == 0, height % side == 0,
            plainTiles.count == (width / side) * (height / side), x % side == 0, y % side == 0
        {
            plain = plainTiles[(y / side) * (width / side) + x / side]
        }
        return TilePixels(
            bytes: UnsafeRawBufferPointer(rebasing: bytes[(y * stride + x * 4)...]), side: side, stride: stride,
            layout: layout, isPlain: plain)
    }
}

/// One tile of a `MetatilePixels`, read in place.
struct TilePixels {
    /// From the tile's first pixel to the end of the metatile's buffer.
    let bytes: UnsafeRawBufferPointer
    let side: Int
    let stride: Int
    let layout: MetatilePixels.Layout
    /// Known to be of one colour (`MetatilePixels.plainTiles`).
    var isPlain = false

    var rowBytes: Int { side * 4 }

    /// The bytes of row `y`.
    func row(_ y: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[(y * stride)..<(y * stride + rowBytes)])
    }

    /// Rows `hashedRowStep` apart are hashed, starting with the first.
    static let hashedRowStep = 8

    /// The hash of every `hashedRowStep`-th row, one after the other: a key for finding a tile
    /// seen before, not its identity. Tiles that differ only in other rows share it: the
    /// encoding cache tells them apart by comparing every byte, and then keys the later one by
    /// `wholeHash`. Hashing whole tiles cost 4% of
    /// a world pyramid's instructions to find the few that repeat without being of one colour
    /// (zoom 0-6 of the world: 103 of the 1,870 such tiles, copies of three two-colour ones);
    /// an eighth of the rows finds the same ones. A label or a line across a tile crosses a
    /// hashed row; only thin horizontal details can fall between them.
    var hash: ContentHash { hash(rowStep: Self.hashedRowStep) }

    /// The hash of all rows one after the other: what `ContentHash(of:)` gives for `copy()`.
    var wholeHash: ContentHash { hash(rowStep: 1) }

    private func hash(rowStep: Int) -> ContentHash {
        guard let state = XXH3_createState() else { fatalError("xxHash could not allocate its state") }
        defer { XXH3_freeState(state) }
        XXH3_128bits_reset(state)
        for y in Swift.stride(from: 0, to: side, by: rowStep) {
            let r = row(y)
            meridian_xxh3_128_update(state, r.baseAddress, r.count)
        }
        let digest = XXH3_128bits_digest(state)
        return ContentHash(high: digest.high64, low: digest.low64)
    }

    /// The pixel of a tile of one colour (open ocean, the inside of a country), or nil. Its
    /// first row is checked pixel by pixel, then the other rows compared with it by memcmp:
    /// a fraction of the cost of hashing the tile, and most tiles that are not of one
    /// colour are told apart within their first row.
    var solidPixel: UInt32? {
        let first = row(0)
        guard let start = first.baseAddress else { return nil }
        let pixel = first.loadUnaligned(as: UInt32.self)
        if isPlain { return pixel }
        var i = 4
        while i < rowBytes {
            if first.loadUnaligned(fromByteOffset: i, as: UInt32.self) != pixel { return nil }
            i += 4
        }
        for y in 1..<side {
            guard let other = row(y).baseAddress, memcmp(other, start, rowBytes) == 0 else { return nil }
        }
        return pixel
    }

    /// The rows as one contiguous array, in the tile's own layout.
    func copy() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rowBytes * side) { buffer, initialized in
            for y in 0..<side {
                let r = row(y)
                if let source = r.baseAddress, let target = buffer.baseAddress {
                    memcpy(target + y * rowBytes, source, rowBytes)
                }
            }
            initialized = rowBytes * side
        }
    }

    /// Whether `other` holds these rows, byte for byte (as `copy()` lays them out).
    func equals(_ other: [UInt8]) -> Bool {
        guard other.count == rowBytes * side else { return false }
        return other.withUnsafeBytes { stored in
            for y in 0..<side {
                let r = row(y)
                guard let a = r.baseAddress, let b = stored.baseAddress else { continue }
                if memcmp(a, b + y * rowBytes, rowBytes) != 0 { return false }
            }
            return true
        }
    }

    /// True when every pixel has alpha 0 (byte 3 of each pixel in both layouts on a
    /// little-endian machine; Cairo's word keeps alpha in its top byte).
    var isFullyTransparent: Bool {
        #if _endian(little)
            let alpha = 3
        #else
            let alpha = layout == .rgba ? 3 : 0
        #endif
        for y in 0..<side {
            let r = row(y)
            var any: UInt8 = 0
            var i = alpha
            while i < rowBytes {
                any |= r[i]
                i += 4
            }
            if any != 0 { return false }
        }
        return true
    }

    /// Encodes the tile with `encoder`: Cairo's words read in place from the metatile (the
    /// encoder converts them if it must), straight RGBA copied into an image.
    func encode(with encoder: any TileEncoding) throws -> [UInt8] {
        switch layout {
        case .premultipliedARGB32:
            let extent = (side - 1) * stride + rowBytes
            return try encoder.encode(
                cairoARGB32: UnsafeRawBufferPointer(rebasing: bytes[0..<extent]), side: side, stride: stride)
        case .rgba:
            return try encoder.encode(Image(width: side, height: side, pixels: copy()))
        }
    }
}
