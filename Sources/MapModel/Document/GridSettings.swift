import Geodesy

/// The grid drawn over a map: the document's `grid` object, or `--grid TYPE` on the command
/// line. Sizes are in points and keep their size on screen (the reference scale does not
/// apply to grids).
public struct GridSettings: Sendable, Equatable {
    public enum LabelPosition: String, CaseIterable, Sendable {
        /// On the map: along the lines and at cell centres (`18S`, `UJ`).
        case geographic
        /// x labels along the bottom edge, y labels along the left edge, and so on.
        case bottomLeft, bottomRight, topLeft, topRight
        /// On two axes through the view's centre.
        case center
        /// On all four edges.
        case allSides
    }

    /// Which labels give way where a grid label and a map label would overlap: they share one
    /// collision space.
    public enum LabelPriority: String, CaseIterable, Sendable {
        /// Grid labels are drawn where their lines put them; map labels keep clear of them.
        case grid
        /// Map labels are placed as if there were no grid; grid labels that would overlap one
        /// are left out.
        case map
    }

    public var type: GridType
    public var visible = true
    public var labelsVisible = true
    public var labelPosition: LabelPosition = .geographic
    public var labelPriority: LabelPriority = .grid
    /// Latitude/longitude labels (and the steps between lines).
    public var labelFormat: LatLongLabelFormat = .degreesMinutesSeconds
    /// MGRS/USNG line labels.
    public var labelUnit: MGRSLabelUnit = .kilometersMeters
    /// A level is drawn when its lines are at least this many points apart on screen.
    public var minSpacing: Double = GridSettings.defaultMinSpacing
    /// Lines every so many degrees (latitude/longitude) or metres (the others), from an
    /// offset, instead of the levels' own steps; drawn where they are at least `minSpacing`
    /// apart, the automatic levels elsewhere. Nil: the levels' steps.
    public var interval: GridInterval?
    /// Lines, crosses or edge ticks; sub-ticks; a sheet's frame border.
    public var marks = GridMarkStyle()
    /// How values are written and which edge shows which; nil labels as before it existed.
    public var annotation: GridAnnotation?
    /// With type `utm`: the projected CRS (`EPSG:27700`) whose eastings and northings the grid
    /// draws instead of UTM zones', at UTM's levels, labelled in metres.
    public var crs: String?
    /// Per-level settings as the document gives them, by level number.
    public var levels: [Int: GridLevelOverride] = [:]
    /// The type the per-level settings were written for. They carry over to another type only
    /// where the levels correspond: between UTM, MGRS and USNG, not to or from latitude/longitude.
    public var levelsWrittenFor: GridType

    public static let defaultMinSpacing = 32.0

    public init(type: GridType) {
        self.type = type
        levelsWrittenFor = type
    }

    /// How many levels a type has: MGRS and USNG 6 (zones to 10 m), UTM 5 (zones to 100 m),
    /// latitude/longitude 12 (30° to 1", or 30° to 0.0001°).
    public static func levelCount(_ type: GridType) -> Int {
        switch type {
        case .latlong: return 12
        case .utm: return 5
        case .mgrs, .usng: return 6
        }
    }

    /// The same settings for another type: visibility, labels, position, priority, format, unit
    /// and spacing stay; per-level settings stay where the levels correspond, and so does the
    /// interval (its degrees are no metres).
    public func withType(_ type: GridType) -> GridSettings {
        var copy = self
        copy.type = type
        if (type == .latlong) != (self.type == .latlong) { copy.interval = nil }
        if type != .utm { copy.crs = nil }
        return copy
    }

    /// The style of a level of the current type: its default with the document's settings for
    /// that level applied (when they were written for a type whose levels correspond).
    public func style(level: Int) -> GridLevelStyle {
        var style = GridSettings.defaultStyle(type: type, level: level)
        if (levelsWrittenFor == .latlong) == (type == .latlong), let override = levels[level] {
            style = override.applied(to: style)
        }
        return style
    }

    /// The built-in style of each level: coarser levels darker, wider and with larger text.
    /// Latitude/longitude in greys, UTM in brick red, MGRS and USNG in blue. Fine lines are
    /// light, but every level's text is dark enough to read at 4.5:1 or more (WCAG 2's
    /// figure for normal text) against the white halo it is printed on.
    public static func defaultStyle(type: GridType, level: Int) -> GridLevelStyle {
        let index = max(0, level)
        let palette: [UInt32]
        let textPalette: [UInt32]
        let widths: [Double]
        let sizes: [Double]
        switch type {
        case .latlong:
            palette = [
                0x1f1f1f, 0x2b2b2b, 0x383838, 0x444444, 0x4f4f4f, 0x595959,
                0x606060, 0x686868, 0x6e6e6e, 0x747474, 0x7a7a7a, 0x808080,
            ]
            textPalette = palette.map { min($0, 0x5c5c5c) }
            widths = [1.2, 1.0, 0.9, 0.8, 0.7, 0.65, 0.6, 0.55, 0.5, 0.5, 0.45, 0.45]
            sizes = [9, 9, 8.5, 8.5, 8, 8, 8, 8, 7.5, 7.5, 7.5, 7.5]
        case .utm:
            palette = [0x6b1010, 0x8c2a1a, 0xa8442a, 0xbc5a3c, 0xcc7656]
            textPalette = [0x6b1010, 0x8c2a1a, 0xa8442a, 0x9c4a30, 0x9c4a30]
            widths = [1.6, 1.1, 0.8, 0.6, 0.5]
            sizes = [10, 9, 8.5, 8, 7.5]
        case .mgrs, .usng:
            palette = [0x102a83, 0x1f4fb5, 0x2f6acb, 0x4582d6, 0x6a9bdd, 0x8fb3e4]
            textPalette = [0x102a83, 0x1f4fb5, 0x2f6acb, 0x2d5fa6, 0x2d5fa6, 0x2d5fa6]
            widths = [1.6, 1.1, 0.8, 0.6, 0.5, 0.4]
            sizes = [11, 10, 8.5, 8, 7.5, 7]
        }
        let i = min(index, palette.count - 1)
        return GridLevelStyle(
            visible: true,
            line: LineSymbol(color: Color(rgb: palette[i]), width: widths[i]),
            text: GridTextSymbol(
                bold: i <= 1, size: sizes[i], color: Color(rgb: textPalette[i]),
                halo: Halo(color: .white, width: 1.5)))
    }
}

/// How one level of a grid looks.
public struct GridLevelStyle: Sendable, Equatable {
    public var visible: Bool
    public var line: LineSymbol
    public var text: GridTextSymbol

    public init(visible: Bool, line: LineSymbol, text: GridTextSymbol) {
        self.visible = visible
        self.line = line
        self.text = text
    }
}

/// The text of grid labels: font, size in points, colour and halo.
public struct GridTextSymbol: Sendable, Equatable {
    public var font: String = "DejaVu Sans"
    public var bold: Bool = false
    public var size: Double = 8
    public var color: Color = .black
    public var halo: Halo?

    public init(
        font: String = "DejaVu Sans", bold: Bool = false, size: Double = 8, color: Color = .black, halo: Halo? = nil
    ) {
        self.font = font
        self.bold = bold
        self.size = size
        self.color = color
        self.halo = halo
    }
}

/// A level's settings as written: every field optional, so that setting one thing (a colour)
/// keeps the level's defaults for the rest.
public struct GridLevelOverride: Sendable, Equatable {
    public var visible: Bool?
    public var lineColor: Color?
    public var lineWidth: Double?
    public var dash: [Double]?
    public var cap: LineCap?
    public var join: LineJoin?
    public var opacity: Double?
    public var font: String?
    public var bold: Bool?
    public var textSize: Double?
    public var textColor: Color?
    public var haloColor: Color?
    public var haloWidth: Double?

    public init() {}

    public func applied(to style: GridLevelStyle) -> GridLevelStyle {
        var s = style
        if let visible { s.visible = visible }
        if let lineColor { s.line.color = lineColor }
        if let lineWidth { s.line.width = lineWidth }
        if let dash { s.line.dash = dash }
        if let cap { s.line.cap = cap }
        if let join { s.line.join = join }
        if let opacity { s.line.opacity = opacity }
        if let font { s.text.font = font }
        if let bold { s.text.bold = bold }
        if let textSize { s.text.size = textSize }
        if let textColor { s.text.color = textColor }
        if haloColor != nil || haloWidth != nil {
            var halo = s.text.halo ?? Halo()
            if let haloColor { halo.color = haloColor }
            if let haloWidth { halo.width = haloWidth }
            s.text.halo = halo
        }
        return s
    }
}
