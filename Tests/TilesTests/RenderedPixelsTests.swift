import Foundation
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Tiles

/// `MapTileRenderer` hands the job Cairo's premultiplied pixels, drawn into one surface kept
/// from block to block, and the job converts only the tiles it encodes. The reference is the
/// path through `renderMetatile`: a new surface for each block, the whole image converted,
/// then cut. Both must write the same bytes.
@Suite struct RenderedPixelsTests {
    /// A renderer that has only `renderMetatile`: the job takes the converted image through
    /// the protocol's default `withRenderedPixels`.
    final class ConvertedImage: MetatileRendering {
        let inner: MapTileRenderer

        init(_ inner: MapTileRenderer) { self.inner = inner }

        func renderMetatile(_ metatile: Metatile) throws -> Image { try inner.renderMetatile(metatile) }
    }

    /// The tiles of a job into a directory, with one worker (one renderer for every block).
    static func tiles(
        map: LoadedMap, pyramid: TilePyramid, metatile: Int, converted: Bool
    ) throws -> [String: [UInt8]] {
        let root = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(root) }
        _ = try TileJob(plan: try MetatilePlan(pyramid: pyramid, size: metatile), workers: 1).run(
            sink: DirectorySink(root: root, scheme: .xyz), encoder: PNGTileEncoder()
        ) {
            let renderer = try MapTileRenderer(map: map, format: try TileFormat(), buffer: 128)
            return converted ? ConvertedImage(renderer) : renderer
        }
        return try FileTree.tiles(under: root)
    }

    static func differing(_ a: [String: [UInt8]], _ b: [String: [UInt8]]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    /// The world, opaque: most tiles repeat another (ocean), so the cache compares tiles in
    /// Cairo's layout, and anti-aliased coasts and labels give every other tile its own PNG.
    @Test func tilesCutFromCairosPixelsHaveTheBytesOfTheConvertedImage() throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/world-mapnik.json"))
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 2, max: 3))
        let drawn = try Self.tiles(map: map, pyramid: pyramid, metatile: 4, converted: false)
        let converted = try Self.tiles(map: map, pyramid: pyramid, metatile: 4, converted: true)
        #expect(drawn.count == pyramid.tileCount)
        // Not a map of one colour: distinct tiles, so a wrong cut or conversion would show.
        #expect(Set(drawn.values).count > 20)
        let differing = Self.differing(drawn, converted)
        #expect(differing.isEmpty, "\(differing.count) tiles differ: \(differing.prefix(5))")
    }

    /// A transparent background does not cover the last block: the kept surface is cleared,
    /// so no outline of one metatile shows through in the next, and translucent edge pixels
    /// (premultiplied in Cairo) convert as in the whole image.
    @Test func aKeptSurfaceStartsTransparentForEachBlock() throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/nyc-overlay.json"))
        let bounds = try GeoBounds(west: -74.26, south: 40.49, east: -73.70, north: 40.92)
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 11, max: 12), bounds: bounds)
        let drawn = try Self.tiles(map: map, pyramid: pyramid, metatile: 2, converted: false)
        let converted = try Self.tiles(map: map, pyramid: pyramid, metatile: 2, converted: true)
        #expect(drawn.count == pyramid.tileCount)
        // Several metatiles, with outlines in some and not others.
        #expect(try MetatilePlan(pyramid: pyramid, size: 2).reduce(0) { n, _ in n + 1 } > 6)
        let images = try drawn.values.map { try PNG.decode($0) }
        #expect(images.contains { $0.isFullyTransparent } && images.contains { !$0.isFullyTransparent })
        let differing = Self.differing(drawn, converted)
        #expect(differing.isEmpty, "\(differing.count) tiles differ: \(differing.prefix(5))")
    }

    /// Blocks of many sizes, smaller after larger and larger again (zoom 0 is one tile, the
    /// range's edges cut blocks short), drawn one after another into the renderer's one
    /// memory for blocks: an opaque background covers whatever the last block left, in
    /// whatever layout.
    @Test func blocksOfEverySizeDrawnInOneMemoryHaveTheBytesOfNewSurfaces() throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/world-mapnik.json"))
        let bounds = try GeoBounds(west: -130, south: -40, east: 60, north: 70)
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 4), bounds: bounds)
        let plan = try MetatilePlan(pyramid: pyramid, size: 4)
        let sizes = Set(plan.map { "\($0.columns)x\($0.rows)" })
        #expect(sizes.count >= 4, "block sizes: \(sizes.sorted())")
        let drawn = try Self.tiles(map: map, pyramid: pyramid, metatile: 4, converted: false)
        let converted = try Self.tiles(map: map, pyramid: pyramid, metatile: 4, converted: true)
        #expect(drawn.count == pyramid.tileCount)
        let differing = Self.differing(drawn, converted)
        #expect(differing.isEmpty, "\(differing.count) tiles differ: \(differing.prefix(5))")
    }

    /// A block of two 4 x 4 tiles side by side (rows 32 bytes apart), all one colour but for
    /// the pixels `odd` sets.
    static func withBlock<T>(odd: [(x: Int, y: Int)], _ body: (MetatilePixels) throws -> T) throws -> T {
        var block = Image(width: 8, height: 4, fill: RGBA(181, 208, 208))
        for p in odd { block[p.x, p.y] = RGBA(181, 208, 209) }
        return try block.withUnsafeBytes { bytes in
            try body(MetatilePixels(bytes: bytes, width: 8, height: 4, stride: 32, layout: .rgba))
        }
    }

    /// A tile is of one colour only when every pixel is: one pixel off in its first row, its
    /// last row or its last column is enough to say no, and the other tile is not looked at.
    @Test func aTileIsOfOneColourOnlyWhenEveryPixelIs() throws {
        #expect(try Self.withBlock(odd: []) { $0.tile(x: 0, y: 0, side: 4).solidPixel } != nil)
        for odd in [(x: 1, y: 0), (x: 3, y: 0), (x: 0, y: 3), (x: 3, y: 3), (x: 2, y: 1)] {
            let (left, right) = try Self.withBlock(odd: [odd]) {
                ($0.tile(x: 0, y: 0, side: 4).solidPixel, $0.tile(x: 4, y: 0, side: 4).solidPixel)
            }
            #expect(left == nil, "pixel \(odd)")
            #expect(right != nil, "pixel \(odd)")
        }
    }

    /// A tile the renderer says is plain is taken as one colour, its first pixel's, without its
    /// rows being compared (here it is not of one colour, to show they are not read); a tile
    /// it says nothing of, or not plain, is compared as before.
    @Test func aTileTheRendererCallsPlainIsNotRead() throws {
        try Self.withBlock(odd: [(x: 2, y: 1), (x: 6, y: 2)]) { block in
            var pixels = block
            pixels.plainTiles = [true, false]
            let first = try #require(pixels.tile(x: 0, y: 0, side: 4).solidPixel)
            #expect(first == block.bytes.loadUnaligned(as: UInt32.self))
            #expect(pixels.tile(x: 4, y: 0, side: 4).solidPixel == nil)
            // A count that is not the tiles' says nothing.
            pixels.plainTiles = [true]
            #expect(pixels.tile(x: 0, y: 0, side: 4).solidPixel == nil)
        }
    }

    /// The tiles `MapTileRenderer` calls plain (open ocean, drawn with nothing but the
    /// background) are each of one colour, pixel by pixel, and at zoom 4 most of the world's
    /// metatile is; tiles with a coast or a label are not called plain.
    @Test func theTilesTheRendererCallsPlainAreOfOneColour() throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/world-mapnik.json"))
        let renderer = try MapTileRenderer(map: map, format: try TileFormat(), buffer: 128)
        let metatile = Metatile(z: 4, x: 0, y: 0, columns: 8, rows: 8)
        let (plain, uniform) = try renderer.withRenderedPixels(metatile) { pixels in
            let flags = try #require(pixels.plainTiles)
            var uniform: [Bool] = []
            for row in 0..<8 {
                for column in 0..<8 {
                    // Every pixel against the tile's first, read here directly.
                    let first = pixels.bytes.loadUnaligned(
                        fromByteOffset: row * 256 * pixels.stride + column * 1024, as: UInt32.self)
                    var same = true
                    for y in 0..<256 where same {
                        for x in 0..<256 {
                            let offset = (row * 256 + y) * pixels.stride + (column * 256 + x) * 4
                            if pixels.bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != first {
                                same = false
                                break
                            }
                        }
                    }
                    uniform.append(same)
                }
            }
            return (flags, uniform)
        }
        #expect(plain.count == 64)
        for i in plain.indices where plain[i] { #expect(uniform[i], "tile \(i) is called plain") }
        // The north-east Pacific of the north-west quarter has plain tiles; coasts, borders
        // and labels make others of more than one colour.
        #expect(
            plain.filter { $0 }.count >= 3, "plain \(plain.filter { $0 }.count), uniform \(uniform.filter { $0 }.count)"
        )
        #expect(uniform.contains(false))
    }

    /// A tile cut in place copies, compares and encodes as the tile cut out as its own image,
    /// and hashes as its rows `hashedRowStep` apart.
    @Test func aTileReadInPlaceIsTheTileCutOut() throws {
        try Self.withBlock(odd: [(x: 5, y: 2), (x: 2, y: 1)]) { block in
            for x in [0, 4] {
                let tile = block.tile(x: x, y: 0, side: 4)
                let whole = try Image(width: 8, height: 4, pixels: Array(block.bytes))
                let cut = try whole.cropped(x: x, y: 0, width: 4, height: 4)
                #expect(tile.copy() == cut.pixels)
                let hashed = Swift.stride(from: 0, to: 4, by: TilePixels.hashedRowStep).flatMap {
                    cut.pixels[$0 * 16..<$0 * 16 + 16]
                }
                #expect(tile.hash == ContentHash(of: hashed))
                #expect(tile.wholeHash == ContentHash(of: cut.pixels))
                #expect(try tile.encode(with: PNGTileEncoder()) == PNG.encode(cut))
                #expect(tile.equals(cut.pixels))
            }
        }
    }

    /// Tiles that differ only in rows the hash leaves out share a hash, and each still gets
    /// its own encoding; a repeat of either reuses that one's once it is kept (a hash is kept
    /// at its second sighting: the middle tile's under the hash of some rows, the first one's
    /// under the hash of the whole tile at its third).
    @Test func tilesWithTheSameHashAreToldApartByTheirPixels() throws {
        var block = Image(width: 48, height: 16, fill: RGBA(181, 208, 208))
        block[3, 0] = RGBA(242, 239, 233)  // in a hashed row of every tile
        block[19, 0] = RGBA(242, 239, 233)
        block[35, 0] = RGBA(242, 239, 233)
        block[17, 5] = RGBA(10, 20, 30)  // row 5 of the middle tile only: not hashed
        let cache = EncodingCache()
        let encoder = CountingEncoder()
        let encoded = try block.withUnsafeBytes { bytes in
            let pixels = MetatilePixels(bytes: bytes, width: 48, height: 16, stride: 192, layout: .rgba)
            return try [0, 16, 32, 16, 0, 16].map { x in
                let tile = pixels.tile(x: x, y: 0, side: 16)
                return try cache.encoding(of: tile) { try tile.encode(with: encoder) }.data
            }
        }
        let first = try block.cropped(x: 0, y: 0, width: 16, height: 16)
        let middle = try block.cropped(x: 16, y: 0, width: 16, height: 16)
        #expect(first.pixels != middle.pixels)
        let reference = CountingEncoder()
        let expected = [try reference.encode(first), try reference.encode(middle)]
        #expect(encoded == [expected[0], expected[1], expected[0], expected[1], expected[0], expected[1]])
        #expect(encoder.count.withLock { $0 } == 4)
        #expect(cache.counts.encodings == 4 && cache.counts.reuses == 2, "\(cache.counts)")
    }

    /// A full cache forgets the tile used least recently, not the oldest one: with room for
    /// two tiles, A and B kept (each at its second sighting), A reused, then C kept evicts B,
    /// so A is reused after C.
    @Test func aFullCacheForgetsTheLeastRecentlyUsedTile() throws {
        var block = Image(width: 48, height: 16, fill: RGBA(181, 208, 208))
        block[3, 0] = RGBA(242, 239, 233)
        block[20, 0] = RGBA(10, 20, 30)
        block[40, 8] = RGBA(90, 20, 30)
        let cache = EncodingCache(capacityBytes: 2 * 16 * 16 * 4)
        let encoder = CountingEncoder()
        let (a, b, c) = (0, 16, 32)
        try block.withUnsafeBytes { bytes in
            let pixels = MetatilePixels(bytes: bytes, width: 48, height: 16, stride: 192, layout: .rgba)
            for x in [a, a, b, b, a, c, c, a] {
                let tile = pixels.tile(x: x, y: 0, side: 16)
                _ = try cache.encoding(of: tile) { try tile.encode(with: encoder) }
            }
        }
        #expect(cache.counts.encodings == 6 && cache.counts.reuses == 2, "\(cache.counts)")
        #expect(encoder.count.withLock { $0 } == 6)
    }
}
