import Geodesy
import MapModel

/// A printed page as a list of things to draw, in millimetres from the page's top-left
/// corner (x right, y down). Sheets lay pages out with these value types; `PageWriter`
/// draws them through Cairo, so no C type leaves Render.
public struct Page: Sendable {
    /// The paper size in millimetres.
    public var width: Double
    public var height: Double
    public var background: Color
    /// Drawn in order, the first at the bottom.
    public var items: [PageItem]
    /// The document title recorded in a PDF's metadata (not drawn).
    public var title: String?

    public init(width: Double, height: Double, background: Color = .white, items: [PageItem] = [], title: String? = nil)
    {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
        self.title = title
    }
}

/// How a line is stroked on a page. Widths and dashes are millimetres.
public struct PageStroke: Sendable, Equatable {
    public var color: Color
    public var width: Double
    public var dash: [Double]
    /// Square caps make the corners of a neatline meet cleanly; butt caps end lines exactly.
    public var squareCaps: Bool

    public init(color: Color = .black, width: Double, dash: [Double] = [], squareCaps: Bool = false) {
        self.color = color
        self.width = width
        self.dash = dash
        self.squareCaps = squareCaps
    }
}

/// One piece of a path: a polyline, closed into a ring or not.
public struct PagePolyline: Sendable, Equatable {
    public var points: [PlanePoint]
    public var closed: Bool

    public init(_ points: [PlanePoint], closed: Bool = false) {
        self.points = points
        self.closed = closed
    }
}

/// A font for page text: family, size in points (1/72 inch), weight and slant.
public struct PageFont: Sendable, Equatable, Hashable {
    public var family: String
    public var size: Double
    public var bold: Bool
    public var italic: Bool

    public init(family: String = "DejaVu Sans", size: Double, bold: Bool = false, italic: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
        self.italic = italic
    }
}

/// A run of text in one font. A text is one or more runs on a shared baseline, e.g. a grid
/// value with its principal digits larger than the others.
public struct PageTextRun: Sendable, Equatable {
    public var text: String
    public var font: PageFont

    public init(_ text: String, font: PageFont) {
        self.text = text
        self.font = font
    }
}

/// Where a text's anchor point sits on its box.
public struct PageTextAnchor: Sendable, Equatable {
    public enum Horizontal: Sendable { case left, center, right }
    public enum Vertical: Sendable { case top, middle, baseline, bottom }
    public var horizontal: Horizontal
    public var vertical: Vertical

    public init(_ horizontal: Horizontal, _ vertical: Vertical) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

/// A piece of text placed on a page.
public struct PageText: Sendable, Equatable {
    public var runs: [PageTextRun]
    public var position: PlanePoint
    public var anchor: PageTextAnchor
    public var color: Color
    /// A halo of this width (mm) around the glyphs, so text over the map stays readable.
    public var halo: (color: Color, width: Double)?
    /// Turned a quarter anticlockwise, to read bottom to top (a value along a sheet's left or
    /// right side); `position` and `anchor` then refer to the turned box.
    public var turned = false

    public init(
        _ runs: [PageTextRun], at position: PlanePoint, anchor: PageTextAnchor,
        color: Color = .black, halo: (color: Color, width: Double)? = nil
    ) {
        self.runs = runs
        self.position = position
        self.anchor = anchor
        self.color = color
        self.halo = halo
    }

    public init(
        _ text: String, font: PageFont, at position: PlanePoint, anchor: PageTextAnchor,
        color: Color = .black, halo: (color: Color, width: Double)? = nil
    ) {
        self.init([PageTextRun(text, font: font)], at: position, anchor: anchor, color: color, halo: halo)
    }

    /// The runs joined: what a reader (or pdftotext) sees.
    public var string: String { runs.map(\.text).joined() }

    public static func == (a: PageText, b: PageText) -> Bool {
        a.runs == b.runs && a.position == b.position && a.anchor == b.anchor && a.color == b.color
            && a.halo?.color == b.halo?.color && a.halo?.width == b.halo?.width && a.turned == b.turned
    }
}

/// One thing drawn on a page.
public enum PageItem: Sendable {
    /// A map view with its top-left corner at `origin`; it covers the view's pixels at the
    /// view's dpi (width × 25.4 / dpi millimetres), so the map's scale is the view's scale.
    /// `grid`: whether the map document's grid is drawn on it (a sheet prints its own).
    case map(View, origin: PlanePoint, grid: Bool)
    /// Polylines stroked and/or filled (filled with the even-odd rule).
    case path([PagePolyline], stroke: PageStroke?, fill: Color?)
    case text(PageText)
    /// Items drawn clipped to a rectangle.
    case clipped(Rect, [PageItem])
    /// Items drawn clipped to the inside of polylines (even-odd), such as a neatline that is
    /// not a rectangle.
    case clippedToPath([PagePolyline], [PageItem])
}
