/// How a raster layer (`"raster": "dem.tif"`) is drawn: which band, how it is resampled into
/// the view, how values become colours (a ramp, grey, or a hillshade), and how the result is
/// laid over what is below (the layer's `opacity` and `compositing`). docs/rasters.md describes each key.
public struct RasterStyle: Sendable, Equatable {
    /// GDAL's resampling methods, as gdalwarp's `-r` names them.
    public enum Resampling: String, Sendable, CaseIterable {
        case nearest, bilinear, cubic, average, lanczos
    }

    /// A value and its colour in a ramp.
    public struct ColorStop: Sendable, Equatable {
        public var value: Double
        public var color: Color

        public init(value: Double, color: Color) {
            self.value = value
            self.color = color
        }
    }

    /// Shaded relief from elevations (gdaldem hillshade's parameters).
    public struct Hillshade: Sendable, Equatable {
        /// Direction the light comes from, degrees clockwise from north.
        public var azimuth = 315.0
        /// Height of the light above the horizon, degrees.
        public var altitude = 45.0
        /// Vertical exaggeration.
        public var zFactor = 1.0
        /// Light from four directions, weighted by aspect (gdaldem's -multidirectional).
        public var multidirectional = false

        public init() {}
    }

    /// The band drawn (1-based) for single-band styles; nil draws band 1, or the colours of
    /// an RGB(A) or paletted raster.
    public var band: Int?
    /// Overrides the dataset's nodata value.
    public var nodata: Double?
    /// A geotransform for a raster without one: x origin, pixel width, row rotation, y
    /// origin, column rotation, pixel height (negative for north-up), as GDAL orders them.
    public var geotransform: [Double]?
    public var resampling: Resampling = .bilinear
    /// Value/colour stops in ascending order; nil draws grey (or the raster's own colours).
    public var colors: [ColorStop]?
    /// Whether values between stops take the lower stop's colour instead of a blend.
    public var stepped = false
    public var hillshade: Hillshade?

    public init() {}

    /// The colour of a value through the ramp: below the first stop the first colour, above
    /// the last the last colour; between stops a blend, or the lower stop's colour when stepped.
    public func rampColor(_ value: Double) -> Color? {
        guard let colors, let first = colors.first, let last = colors.last else { return nil }
        if value <= first.value { return first.color }
        if value >= last.value { return last.color }
        var low = 0
        var high = colors.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if colors[mid].value <= value { low = mid } else { high = mid }
        }
        let a = colors[low]
        let b = colors[high]
        if stepped || b.value == a.value { return a.color }
        let t = (value - a.value) / (b.value - a.value)
        return Color(
            red: a.color.red + (b.color.red - a.color.red) * t,
            green: a.color.green + (b.color.green - a.color.green) * t,
            blue: a.color.blue + (b.color.blue - a.color.blue) * t,
            alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * t)
    }
}

extension MapDocument {
    /// Whether any layer is a raster (its tiles are imagery, encoded as such).
    public var hasRasterLayers: Bool { layers.contains { $0.raster != nil } }
}
