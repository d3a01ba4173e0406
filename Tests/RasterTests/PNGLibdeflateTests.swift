import Foundation
import TestSupport
import Testing

@testable import Raster

/// The PNGs whose image data libdeflate compresses (the default): the same pixels as the
/// source for an independent decoder, and no larger than the zlib encoding they replaced.
@Suite struct PNGLibdeflateTests {
    /// The representative map tiles (Cairo renders of the fixture data) that the encoder's
    /// settings were chosen on: palette, RGB and RGBA ones.
    static func fixtureTiles() throws -> [Image] {
        let folder = Repository.fixture("png/tiles")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        return try names.map { try PNG.decode(contentsOf: folder + "/" + $0) }
    }

    /// What the encoder did before libdeflate: zlib through libpng, unfiltered, level 6 for
    /// palettes and 3 for RGB/RGBA.
    static let zlibOptions: PNGEncodingOptions = {
        var options = PNGEncodingOptions()
        options.palette = PNGCompression(filter: .none, level: 6, strategy: .default, deflater: .zlib)
        options.truecolour = PNGCompression(filter: .none, level: 3, strategy: .default, deflater: .zlib)
        return options
    }()

    @Test func fixtureTilesDecodeToTheSamePixelsWithPypng() throws {
        let tiles = try Self.fixtureTiles()
        #expect(tiles.count >= 30)
        let folder = try scratchDirectory()
        defer { TemporaryFolder.remove(folder) }
        var paths: [String] = []
        var colourTypes = Set<Int>()
        for (index, tile) in tiles.enumerated() {
            let png = try PNG.encode(tile)
            colourTypes.insert(try #require(ihdrDepthAndType(png)).colourType)
            let path = "\(folder)/\(index).png"
            try Data(png).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        #expect(colourTypes == [2, 3, 6])  // every path of the encoder was taken
        // pypng checks every chunk's CRC and the zlib stream's Adler-32 as it decodes.
        let decoded = try referenceDecode(paths)
        for (index, tile) in tiles.enumerated() {
            #expect(decoded[index] == tile, "tile \(index)")
        }
    }

    /// The compressor alone, at the palette level zlib had: flat palette tiles are then left at
    /// level 6 (the default takes level 1 for them, a trade measured below).
    @Test func noLargerThanTheZlibEncodingForEachColourType() throws {
        var libdeflateBytes: [Int: Int] = [:]
        var zlibBytes: [Int: Int] = [:]
        var sameLevel = PNGEncodingOptions()
        sameLevel.palette.flatLevel = nil
        for tile in try Self.fixtureTiles() {
            let new = try PNG.encode(tile, options: sameLevel)
            let old = try PNG.encode(tile, options: Self.zlibOptions)
            let type = try #require(ihdrDepthAndType(new)).colourType
            #expect(ihdrDepthAndType(old)?.colourType == type)
            libdeflateBytes[type, default: 0] += new.count
            zlibBytes[type, default: 0] += old.count
        }
        for type in [2, 3, 6] {
            let new = try #require(libdeflateBytes[type])
            let old = try #require(zlibBytes[type])
            #expect(new <= old, "colour type \(type): libdeflate \(new) bytes, zlib \(old)")
        }
    }

    /// Flat palette tiles compressed cheaply (by `RunDeflate`, the default, or at libdeflate
    /// level 1 when it gives up) cost a bounded number of bytes against level 6: on the fixture
    /// tiles, small ones where every byte shows, under a quarter more (measured at level 1:
    /// +20%; +1.7% over the New York MGRS pyramid of `make bench`; runs are smaller there, see
    /// `PNGRunDeflateTests`); detailed palette tiles keep level 6 and their bytes.
    @Test func flatPaletteTilesAtLevelOneCostBoundedBytes() throws {
        var level6 = PNGEncodingOptions()
        level6.palette.flatLevel = nil
        var flat = 0
        var flatAtSix = 0
        for tile in try Self.fixtureTiles() {
            let chosen = try PNG.encode(tile)
            let atSix = try PNG.encode(tile, options: level6)
            guard try #require(ihdrDepthAndType(chosen)).colourType == 3 else {
                #expect(chosen == atSix, "a tile that is not a palette changed")
                continue
            }
            if chosen == atSix { continue }  // detailed: level 6 either way
            flat += chosen.count
            flatAtSix += atSix.count
        }
        #expect(flatAtSix > 0, "no flat palette tile among the fixtures")
        #expect(
            Double(flat) <= 1.25 * Double(flatAtSix), "flat palette tiles: \(flat) bytes at level 1, \(flatAtSix) at 6")
    }

    /// Both libraries, every libdeflate level, a resolution chunk and odd sizes: the chunks are
    /// in libpng's order and the pixels come back.
    @Test func everyLevelRoundTripsWithTheSameChunksAsLibpng() throws {
        let colours = (0..<600).map {
            RGBA(UInt8($0 & 0xFF), UInt8(($0 * 7) & 0xFF), UInt8($0 >> 8), $0 % 3 == 1 ? 90 : 255)
        }
        let images = [
            try image(width: 37, height: 29, colours: colours),  // RGBA
            try image(width: 37, height: 29, colours: colours.map { RGBA($0.r, $0.g, $0.b) }),  // RGB
            try image(width: 5, height: 3, colours: Array(colours.prefix(3))),  // 2-bit palette, tRNS
        ]
        for source in images {
            var reference = Self.zlibOptions
            reference.dotsPerInch = 300
            let zlibChunks = chunks(of: try PNG.encode(source, options: reference)).map(\.type)
            for level in Deflater.levels {
                var options = PNGEncodingOptions(dotsPerInch: 300)
                options.palette = PNGCompression(filter: .none, level: level, strategy: .default, deflater: .libdeflate)
                options.truecolour = options.palette
                let png = try PNG.encode(source, options: options)
                #expect(Set(chunks(of: png).map(\.type)) == Set(zlibChunks))
                #expect(chunks(of: png).map(\.type).filter { $0 != "IDAT" } == zlibChunks.filter { $0 != "IDAT" })
                #expect(try PNG.decode(png) == source, "level \(level)")
            }
        }
        #expect(
            try referenceDecode(bytes: PNG.encode(images[0], options: PNGEncodingOptions(dotsPerInch: 72))) == images[0]
        )
    }
}
