import Raster

/// Renders a metatile as one image; the job cuts it into tiles one at a time (so a worker
/// never holds a metatile's tiles all at once). One instance per worker thread (renderers
/// keep caches and are not thread-safe); the job makes one per worker with a factory.
public protocol MetatileRendering: AnyObject {
    /// The image of the block: `columns` x `rows` square tiles, without the buffer.
    func renderMetatile(_ metatile: Metatile) throws -> Image

    /// Renders the block and hands `body` its pixels, borrowed for the call only (a renderer
    /// may draw the next block into the same buffer). The default converts nothing: it hands
    /// over `renderMetatile`'s image.
    func withRenderedPixels<T>(_ metatile: Metatile, _ body: (MetatilePixels) throws -> T) throws -> T
}

extension MetatileRendering {
    public func withRenderedPixels<T>(_ metatile: Metatile, _ body: (MetatilePixels) throws -> T) throws -> T {
        let image = try renderMetatile(metatile)
        return try image.withUnsafeBytes { bytes in
            try body(
                MetatilePixels(
                    bytes: bytes, width: image.width, height: image.height, stride: image.width * 4, layout: .rgba))
        }
    }
}

/// Turns a tile image into the bytes stored for it. Shared by all workers.
public protocol TileEncoding: Sendable {
    func encode(_ tile: Image) throws -> [UInt8]

    /// Encodes a tile as Cairo drew it: `side` x `side` native-endian ARGB32 words, colour
    /// premultiplied by alpha, rows `stride` bytes apart (a tile is read where it lies in its
    /// metatile). The default converts it to an `Image`; an encoder that reads Cairo's words
    /// itself saves the conversion.
    func encode(cairoARGB32 tile: UnsafeRawBufferPointer, side: Int, stride: Int) throws -> [UInt8]
}

extension TileEncoding {
    public func encode(cairoARGB32 tile: UnsafeRawBufferPointer, side: Int, stride: Int) throws -> [UInt8] {
        try encode(Image(cairoARGB32: tile, width: side, height: side, stride: stride))
    }

    /// A tile whose rows are one after the other.
    public func encode(cairoARGB32 tile: UnsafeRawBufferPointer, side: Int) throws -> [UInt8] {
        try encode(cairoARGB32: tile, side: side, stride: side * 4)
    }
}

/// The size and density of the tiles a job writes.
public struct TileFormat: Sendable, Equatable {
    /// 256 or 512: pixels of a 1x tile.
    public let tileSize: Int
    /// 1 or 2: high-density @2x tiles have twice the pixels and the same scale denominators.
    public let pixelRatio: Int

    public init(tileSize: Int = 256, pixelRatio: Int = 1) throws(TilesError) {
        guard tileSize == 256 || tileSize == 512 else {
            throw .unsupportedTileSize(tileSize)
        }
        guard pixelRatio == 1 || pixelRatio == 2 else {
            throw .unsupportedPixelRatio(pixelRatio)
        }
        self.tileSize = tileSize
        self.pixelRatio = pixelRatio
    }

    /// Pixels a side of each tile image.
    public var pixels: Int { tileSize * pixelRatio }
}
