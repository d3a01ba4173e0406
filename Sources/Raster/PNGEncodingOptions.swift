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

    /// The measured choice. `meridian-bench png` encodes the representative tiles in
    /// Fixtures/png/tiles (Cairo renders of the fixture data: ocean, coasts, borders,
    /// labels, city boroughs, transparent overlays) under every candidate; see
    /// PNGBench.swift for the table. The numbers behind this choice are in PNGBench.swift.
    public static let measuredPalette = PNGCompression(filter: .none, level: 6, strategy: .default)
    public static let measuredTruecolour = PNGCompression(filter: .adaptive, level: 6, strategy: .default)
}
