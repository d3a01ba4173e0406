/// How rows are filtered and compressed: by libpng and zlib, or (rows unfiltered or
/// sub-filtered) by libdeflate.
public struct PNGCompression: Sendable, Hashable, CustomStringConvertible {
    /// The PNG row filter: one filter for every row, or libpng's adaptive choice per row
    /// (minimum sum of absolute differences over all five).
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        case none, sub, up, average, paeth, adaptive
    }
    /// The zlib strategy (deflateInit2).
    public enum Strategy: String, Sendable, Hashable, CaseIterable {
        case `default`, filtered, rle, huffmanOnly
    }

    /// The library that compresses the image data.
    public enum Deflater: String, Sendable, Hashable, CaseIterable {
        /// zlib through libpng: every filter and strategy.
        case zlib
        /// libdeflate, one call over the whole image: filter none or sub; `strategy` does
        /// not apply. With another filter the image goes through zlib.
        case libdeflate
    }

    public var filter: Filter
    /// zlib level, 0 (store) to 9 (smallest); libdeflate level, 0 to 12.
    public var level: Int
    public var strategy: Strategy
    public var deflater: Deflater
    /// The level for flat images instead of `level` (libdeflate only): images whose colour
    /// changes from one pixel to the next at fewer than `flatChanges` of their pixels (or
    /// `nearlyFlatChanges` with `nearlyFlat`). Nil: `level` for every image.
    public var flatLevel: Int?
    /// Flat images (fewer than `flatChanges`; `flatLevel` must be set) are compressed by
    /// `RunDeflate` instead, and at `flatLevel` only when they turn out to have too much
    /// detail for it.
    public var flatRuns = false
    /// Nearly flat images (fewer than `nearlyFlatChanges`) take `flatLevel` too, without the
    /// runs. Measured for RGB/RGBA tiles only (`PNGEncodingOptions.measuredTruecolour`).
    public var nearlyFlat = false

    /// Flat: fewer than 1 pixel in 10 differs from the pixel before it (row-major order).
    /// Map tiles of plain areas crossed by grid lines and outlines change at 2-10% of their
    /// pixels; the representative tiles of `PNGEncodingOptions.measuredTruecolour`, all but
    /// one, at 10-50%.
    public static let flatChanges = 0.1
    /// Nearly flat: fewer than 15 in 100. Tiles crossed by a grid's lines and labels over
    /// city blocks change at 10-15%: at level 5 they were an eighth of what the grid of the
    /// New York MGRS pyramid cost (docs/performance.md, 2026-12-03).
    public static let nearlyFlatChanges = 0.15

    public init(
        filter: Filter, level: Int, strategy: Strategy, deflater: Deflater = .zlib, flatLevel: Int? = nil,
        flatRuns: Bool = false, nearlyFlat: Bool = false
    ) {
        self.filter = filter
        self.level = level
        self.strategy = strategy
        self.deflater = deflater
        self.flatLevel = flatLevel
        self.flatRuns = flatRuns
        self.nearlyFlat = nearlyFlat
    }

    /// libdeflate compresses the image (rows unfiltered or sub-filtered), libpng and zlib otherwise.
    var usesLibdeflate: Bool { deflater == .libdeflate && (filter == .none || filter == .sub) }

    /// How an image of `pixels` pixels of which `changes` differ from the one before is
    /// compressed: these settings at its libdeflate level, and whether `RunDeflate` tries it
    /// first.
    func choice(pixels: Int, changes: Int) -> (compression: PNGCompression, runs: Bool) {
        guard let flatLevel, usesLibdeflate else { return (self, false) }
        var chosen = self
        let changed = Double(changes)
        if changed < PNGCompression.flatChanges * Double(pixels) {
            chosen.level = flatLevel
            return (chosen, flatRuns)
        }
        if nearlyFlat && changed < PNGCompression.nearlyFlatChanges * Double(pixels) { chosen.level = flatLevel }
        return (chosen, false)
    }

    public var description: String {
        let flat =
            flatLevel.map {
                (flatRuns ? ", runs (else level \($0)) when flat" : ", level \($0) when flat")
                    + (nearlyFlat ? ", level \($0) when nearly flat" : "")
            } ?? ""
        return usesLibdeflate
            ? "filter \(filter.rawValue), libdeflate level \(level)\(flat)"
            : "filter \(filter.rawValue), level \(level), \(strategy.rawValue)"
    }
}

/// Everything `PNG.encode` can be told. The defaults are the measured choice for map tiles.
public struct PNGEncodingOptions: Sendable, Hashable {
    public enum ColourMode: Sendable, Hashable {
        /// An exact palette when the image has at most 256 distinct RGBA colours (tRNS only
        /// when one of them is translucent), else RGB when every pixel is opaque, else RGBA.
        case automatic
        /// Always 8-bit RGBA: only for comparison in benchmarks.
        case alwaysRGBA
    }

    public var colourMode: ColourMode = .automatic
    /// Compression for palette images.
    public var palette: PNGCompression = PNGEncodingOptions.measuredPalette
    /// Compression for RGB and RGBA images.
    public var truecolour: PNGCompression = PNGEncodingOptions.measuredTruecolour
    /// Palettes of at most 2, 4 or 16 colours use 1, 2 or 4 bits per pixel instead of 8.
    public var packPaletteBits = true
    /// When set, a pHYs chunk records this resolution (for printed sheets). Must be > 0.
    public var dotsPerInch: Double?

    public init() {}

    public init(dotsPerInch: Double?) {
        self.dotsPerInch = dotsPerInch
    }

    /// The measured choice (`meridian-bench png`: release build, speeds per core from thread
    /// CPU time, sizes exact). The inputs are the 39 representative tiles in Fixtures/png/tiles,
    /// Cairo renders of the fixture data: ocean, coasts and borders, labels with halos, city
    /// streets, transparent overlays; the automatic colour choice makes 25 of them RGB, 7 RGBA
    /// and 7 palette.
    ///
    /// Filter: none, for every colour type. Map tiles are flat areas cut by anti-aliased edges
    /// and text. Filters also turn flat runs into zeros, but they turn each edge and glyph into
    /// residuals that zlib can no longer match against earlier copies of the same edge or glyph:
    /// on the RGB/RGBA tiles every filter was about 30% larger than none at the same level
    /// (libpng's default, adaptive, +30% at level 6: 1,275,667 vs 978,721 bytes) and slower;
    /// on palette tiles filters were 16-40% larger at level 6, as usual for palette indices.
    ///
    /// Compressor: libdeflate, which compresses the whole image in one call. Against zlib
    /// (through libpng) on the same unfiltered rows, counted in instructions with callgrind
    /// (which the machine's load does not disturb) over the 32 RGB/RGBA tiles: zlib level 3,
    /// the choice before libdeflate, 1,008,906 bytes in 305 M instructions; libdeflate level 5
    /// 984,564 bytes (2.4% smaller, and smaller for RGB and for RGBA alone) in 288 M; level 6
    /// 973,752 bytes in 312 M; level 4 is 0.8% larger than zlib 3 on the RGB tiles. Over the
    /// 7 palette tiles: zlib level 6 12,157 bytes in 26 M instructions, libdeflate level 6
    /// 12,030 bytes in 16 M. One IDAT chunk instead of libpng's 8 KB ones saves 12 bytes per
    /// 8 KB as well.
    /// (With zlib: level 3 for RGB/RGBA was 3.4% larger than level 6 and 1.9x as fast; level
    /// 6 for palette tiles, as level 3 made them 18% larger.)
    /// Strategy (zlib only): default. Z_FILTERED is the same size or larger with unfiltered
    /// rows; Z_RLE is about 50% larger.
    ///
    /// Before libdeflate, over all 39 tiles: 1,025,874 bytes at 738 tiles/s (194 MB/s of RGBA input), against
    /// libpng's defaults (adaptive, level 6) with the same colour choice 1,292,761 bytes at
    /// 278 tiles/s, and with RGBA throughout 1,359,258 bytes at 232 tiles/s: 25% smaller and
    /// 3.2x as fast as the naive encoding.
    ///
    /// Flat palette images (the same rule as RGB ones, `PNGCompression.flatChanges`) at level 1:
    /// the 642 8-bit palette tiles of the New York MGRS pyramid (`make bench`; each tile's rows
    /// through libdeflate alone, counted by callgrind) cost 1.33 G instructions at level 6
    /// (932,815 bytes) and 0.59 G at level 1 (1,008,782 bytes, +8%); levels 2-4 cost 1.19-1.22 G,
    /// zlib's run-length strategy 0.86 G for 1,350,509 bytes, the up filter more in both. Over
    /// the whole pyramids (docs/performance.md) libdeflate's instructions fell by 0.74 G with
    /// the grid (+1.7% bytes) and by 0.09 G without it (+0.2%).
    ///
    /// Flat palette images through `RunDeflate` (matches at distance 1 and one row only, one
    /// block with its own Huffman codes), level 1 only for those it gives up on: over the 641
    /// flat 8-bit palette tiles of the New York MGRS pyramid (each tile's rows alone, callgrind)
    /// 0.24 G instructions for 815,471 bytes of zlib stream against level 1's 0.58 G for
    /// 1,004,936 (-19%, and smaller than level 6's); over the 83 of the same map without the
    /// grid 53,852 bytes against 62,393. No tile of either had more literals than the budget.
    public static let measuredPalette = PNGCompression(
        filter: .none, level: 6, strategy: .default, deflater: .libdeflate, flatLevel: 1, flatRuns: true)

    /// Level 5, and level 1 for flat images (`PNGCompression.flatLevel`; each tile's rows through
    /// libdeflate alone, its instructions counted by callgrind, see docs/performance.md): level 1
    /// is a different match finder (one hash table, greedy) that costs about half of level 5's
    /// instructions on RGB map tiles (level 2 on the same tiles saved a tenth as much). What level
    /// 1 gives up is in detailed tiles: over the 32 RGB/RGBA tiles above it is 8.7% larger; over
    /// the 747 RGB tiles of the New York MGRS pyramid (`make bench`), flat areas crossed by grid
    /// lines and labels, 1.3% larger. Choosing it only for tiles whose colour changes at fewer than
    /// 10% of pixels (at the time; nearly flat ones below take level 1 too): 31 of the 32
    /// RGB/RGBA tiles keep level 5 (one changes at 7.6% and is 2.4% larger; the 32 together
    /// 0.02% larger); 691 of the 747 grid tiles go to level 1, libdeflate's
    /// instructions over the pyramid's 962 tiles drop from 5.09 G to 2.87 G for 0.7% more bytes
    /// (7,322,694 to 7,374,287 of image data), and on the same map without the grid from 1.78 G to
    /// 0.96 G for 1.9% more.
    ///
    /// Flat RGB/RGBA images through `RunDeflate` first (runs repeat the pixel to the left, 3 or
    /// 4 bytes back, or the row above), level 1 for those it gives up on: libdeflate's level 1
    /// still hashes every byte, about 2.7 M instructions for a 256 x 256 RGB tile, and flat RGB
    /// tiles were most of a world pyramid's encoding (1,097 of its 1,124 RGB tiles at zoom 0-6).
    /// World pyramid zoom 0-6 (callgrind, one worker): 9.96 G -> 7.86 G instructions, 8,410,707
    /// -> 8,248,243 bytes; the same pixels (docs/performance.md, 2026-12-02 night).
    ///
    /// Nearly flat images (10-15% of pixels changing) at level 1 too, without the runs: over
    /// the 32 RGB/RGBA tiles 0.35% more bytes (five of them, 5% larger each); the New York
    /// MGRS pyramid's 30 such tiles were most of its level 5 work (callgrind: 103 M fewer
    /// instructions with the grid, 25 M without it, +0.7% and +0.3% bytes); the world at zoom
    /// 0-8 +0.06% bytes (docs/performance.md, 2026-12-03 night).
    public static let measuredTruecolour = PNGCompression(
        filter: .none, level: 5, strategy: .default, deflater: .libdeflate, flatLevel: 1, flatRuns: true,
        nearlyFlat: true)
}
