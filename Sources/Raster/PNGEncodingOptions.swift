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

    /// The measured choice (`meridian-bench png`, release build, one core; the table it prints
    /// is reproducible from the representative tiles in Fixtures/png/tiles: Cairo renders of
    /// the fixture data with ocean, coasts, borders, labels with halos, city streets and
    /// transparent overlays).
    ///
    /// Filter: none, for every colour type. Map tiles are flat areas cut by anti-aliased edges
    /// and text; the PNG filters turn flat runs into zeros too, but they also turn each edge
    /// and glyph into several distinct residuals that zlib can no longer match against earlier
    /// copies of the same edge or glyph. On the RGB/RGBA tiles every filter made the output
    /// about 30% larger than no filter at the same level (adaptive, libpng's default, +34% at
    /// level 6) and slower; on palette tiles filters were 20-50% larger, as usual for indices.
    ///
    /// Level: 3 for RGB/RGBA. Against level 6 it is 3.4% larger and 1.8x as fast (1.0 MB vs
    /// 0.98 MB over 32 tiles; 640 vs 350 tiles/s); level 9 saves another 3% at a fifth of the
    /// speed, levels 1-2 cost 6-10% in size for 15-25% more speed. For palette tiles, level 6:
    /// they are small and quick (about 2000 tiles/s), and level 3 would be 18% larger.
    /// Strategy: default; Z_FILTERED is no better with unfiltered rows, Z_RLE is 50% larger.
    ///
    /// Together: 14% smaller and 2.1x as fast as libpng's defaults with RGBA throughout.
    public static let measuredPalette = PNGCompression(filter: .none, level: 6, strategy: .default)
    public static let measuredTruecolour = PNGCompression(filter: .none, level: 3, strategy: .default)
}
