import DataSources
import Geodesy
import MapModel

/// What a user asks for: a place, a scale, paper, and what to print around the map.
public struct SheetRequest: Sendable {
    /// Which grid the sheet prints. The UTM family (utm, mgrs, usng) is drawn in the sheet's
    /// own zone, where its lines are straight and square to the frame; latitude/longitude
    /// lines are the gently curved meridians and parallels of that plane.
    public enum Grid: Sendable, Equatable {
        /// The map document's own grid type, in its style: none when the document hides its
        /// grid, MGRS when it has none.
        case document
        case none
        case type(GridType)
    }

    public enum Area: Sendable, Equatable {
        /// The frame's centre, in degrees.
        case center(longitude: Double, latitude: Double)
        /// An area the frame must show, in degrees.
        case bbox(west: Double, south: Double, east: Double, north: Double)
        /// A quadrangle of the graticule, bounded by its meridians and parallels.
        case quadrangle(Quadrangle)
    }

    public var area: Area
    /// The scale denominator; nil with a bbox picks the largest round scale that fits, and
    /// with a quadrangle its series scale when it fits, else the largest round one that does.
    public var scale: Double?
    /// Already oriented.
    public var paper: Paper
    /// The unprinted border of the paper on every side, in millimetres.
    public var margins: Double
    /// The PNG's pixels per inch, and the resolution the map is drawn at in every format.
    public var dpi: Double
    /// Defaults to the map document's name.
    public var title: String?
    public var grid: Grid
    /// Printed in the notes when set (never by default, so outputs are reproducible).
    public var date: String?
    /// The CRS to draw in (`--crs`); nil for the UTM zone of the centre.
    public var crs: ProjectedPlane?
    /// With a UTM grid: the projected CRS whose eastings and northings the grid shows instead
    /// of the UTM zone's (`--grid crs`: the sheet's own CRS, a national grid).
    public var gridCRS: ProjectedPlane?
    /// How the main grid's values are written and placed (`--annotation`), instead of the
    /// document grid's `annotation`; nil keeps the document's.
    public var annotation: GridAnnotation?

    /// The quadrangle the sheet is cut to, if its area is one.
    public var quadrangle: Quadrangle? {
        guard case .quadrangle(let quad) = area else { return nil }
        return quad
    }

    public static let defaultMargins = 10.0
    public static let defaultDPI = 300.0

    public init(
        area: Area, scale: Double? = nil, paper: Paper, margins: Double = defaultMargins,
        dpi: Double = defaultDPI, title: String? = nil, grid: Grid = .document, date: String? = nil
    ) {
        self.area = area
        self.scale = scale
        self.paper = paper
        self.margins = margins
        self.dpi = dpi
        self.title = title
        self.grid = grid
        self.date = date
    }
}
