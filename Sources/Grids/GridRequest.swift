import Geodesy

/// What to generate: the grid type, its levels and label options, for an area of a plane.
public struct GridRequest: Sendable {
    /// Where cell labels go.
    public enum CellAnchor: Sendable {
        /// At a fixed point of the cell (its centre within the projection's latitudes): the
        /// same in every view, for tiles, whose labels must continue across tile edges.
        case fixed
        /// At the centre of the part of the cell inside the area: for single images and
        /// sheets, so that a zone or square seen only in part is still named.
        case visiblePart
    }

    public var type: GridType
    /// The levels to draw; nil picks them by spacing (`GridLevels.automatic`).
    public var levels: [Int]?
    /// Automatic levels: the least distance between lines, in pixels.
    public var minSpacing: Double = 40
    public var labelFormat: LatLongLabelFormat = .degreesMinutesSeconds
    public var labelUnit: MGRSLabelUnit = .kilometersMeters
    public var cellAnchor: CellAnchor = .fixed
    /// Lines are generated this many pixels beyond the area (for stroke widths).
    public var margin: Double = 0
    /// Labels are anchored up to this many pixels beyond the area (labels whose anchor lies
    /// outside but whose text reaches in, or that decide which labels inside are kept); nil
    /// for `margin`. Lines are made out there only as far as labels on them need.
    public var labelMargin: Double?
    /// Line labels repeat along a line about this many pixels apart (at least).
    public var labelRepeat: Double = 384
    /// Whether to make labels at all.
    public var labels: Bool = true
    /// Whether to make lines: without them only labels are made (the label regions of tiles,
    /// which draw their lines from the metatiles' own generation). A label never depends on
    /// the lines made, so the labels are the same either way.
    public var lines: Bool = true
    /// Lines at a spacing the user chose (a 5' graticule, a 2 km grid) instead of the levels'
    /// own steps; nil for the levels' steps.
    public var interval: GridInterval?
    /// Latitude/longitude: levels drawn for parallels only, finer than `levels` (Web Mercator
    /// stretches parallels apart towards the poles, so an Arctic view needs finer ones). With
    /// `parallelMinSpacing` (pixels), a parallel of one of these levels is drawn only where
    /// parallels of its level are at least that far apart on the projection.
    public var parallelLevels: [Int] = []
    public var parallelMinSpacing: Double?
    /// Where easting and northing lines (meridians and parallels) cross, for grids drawn as
    /// crosses: `GridGeometry.intersections`.
    public var intersections = false
    /// UTM, MGRS and USNG: draw only this UTM zone's lines, carried over the zone's edges
    /// across the whole area (as a sheet printed in one zone's plane shows its own grid
    /// extended); no zone boundaries, polar lines or square labels. Nil: every zone's lines,
    /// each stopping at its zone's edge.
    public var zone: Int?
    /// With the UTM type: the easting and northing lines of this projected CRS instead of UTM
    /// zones' (a British National Grid), at UTM's levels and labelled in metres.
    public var crs: (any GridCRS)?

    public init(type: GridType) {
        self.type = type
    }
}

/// A request the generator cannot serve, as one line.
public enum GridError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownLevel(type: GridType, level: Int, count: Int)
    case levelTooFine(type: GridType, level: Int, name: String, pixels: Double)
    case invalidArea(String)
    case invalidInterval(String)
    /// More vertices than `Grid.maxVertices` would be made.
    case tooMuchWork(estimate: Double, limit: Int)

    public var description: String {
        switch self {
        case .unknownLevel(let type, let level, let count):
            return "\(type.rawValue) has no level \(level) (its levels are 0 to \(count - 1))"
        case .levelTooFine(let type, let level, let name, let pixels):
            return
                "\(type.rawValue) level \(level) (\(name)) would draw lines \(GridText.pixels(pixels)) pixels apart; "
                + "zoom in or leave it out"
        case .invalidArea(let why), .invalidInterval(let why):
            return why
        case .tooMuchWork(let estimate, let limit):
            return
                "the grid would have about \(DecimalFormat.grouped(estimate.rounded())) vertices, more than the limit of \(DecimalFormat.grouped(Double(limit))) vertices: ask for a smaller area, a lower zoom or fewer levels"
        }
    }
}
