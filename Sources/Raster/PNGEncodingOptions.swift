/// How libpng filters rows and zlib compresses them.
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

    public var filter: Filter
    /// zlib level, 0 (store) to 9 (smallest).
    public var level: Int
    public var strategy: Strategy

    public init(filter: Filter, level: Int, strategy: Strategy) {
        self.filter = filter
        self.level = level
        self.strategy = strategy
    }

    public var description: String { "filter \(filter.rawValue), level \(level), \(strategy.rawValue)" }
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
    /// Level: 3 for RGB/RGBA: 3.4% larger than level 6 and 1.9x as fast (1,012,038 vs
    /// 978,721 bytes; 630 vs 337 tiles/s). Level 9 saves another 2.8% at a fifth of level 6's
    /// speed; levels 2 and 1 are 3% and 6% larger than 3 for 11% and 16% more speed.
    /// Level 6 for palette tiles: they are small and already cheap (about 2,100 tiles/s), and
    /// level 3 would make them 18% larger.
    /// Strategy: default. Z_FILTERED is the same size or larger with unfiltered rows; Z_RLE
    /// is about 50% larger.
    ///
    /// Over all 39 tiles: 1,025,874 bytes at 738 tiles/s (194 MB/s of RGBA input), against
    /// libpng's defaults (adaptive, level 6) with the same colour choice 1,292,761 bytes at
    /// 278 tiles/s, and with RGBA throughout 1,359,258 bytes at 232 tiles/s: 25% smaller and
    /// 3.2x as fast as the naive encoding.
    public static let measuredPalette = PNGCompression(filter: .none, level: 6, strategy: .default)
    public static let measuredTruecolour = PNGCompression(filter: .none, level: 3, strategy: .default)
}
