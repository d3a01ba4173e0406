import Foundation
import Geodesy
import Render

/// Where things go on a sheet, in millimetres from the paper's top-left corner:
///
///     ┌ margins ─────────────────────────────────────┐
///     │            title band (title, subtitle)       │
///     │  ┌ border ────────────────────────────────┐  │
///     │  │ collar: grid values, ticks, corners    │  │
///     │  │   ┌ neatline = map frame ───────────┐  │  │
///     │  │   │              map                │  │  │
///     │  │   └─────────────────────────────────┘  │  │
///     │  └────────────────────────────────────────┘  │
///     │  notes        │ scale, scale bar │ north      │
///     └───────────────────────────────────────────────┘
///
/// The map frame is a whole number of pixels at the sheet's dpi and starts on a pixel, so a
/// PNG shows the map pixel for pixel and the frame's edges are crisp.
public struct SheetLayout: Sendable, Equatable {
    public let paper: Paper
    public let margins: Double
    public let dpi: Double
    /// Inside the margins.
    public let content: Rect
    public let titleBand: Rect
    /// The outer border around the collar.
    public let border: Rect
    /// The neatline: the map's frame.
    public let frame: Rect
    /// The frame's size in pixels at `dpi` (the map view's size).
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The collar's depth above/below and left/right of the frame.
    public let collarTopBottom: Double
    public let collarSides: Double
    /// The band below the border: notes, scale and north arrow side by side.
    public let notes: Rect
    public let scaleBox: Rect
    public let northBox: Rect

    /// Heights of the bands and the gaps between them.
    static let titleHeight = 15.0
    static let bottomHeight = 32.0
    static let gap = 3.0
    /// The smallest map frame worth printing.
    static let minimumFrame = 20.0
    /// The resolutions a sheet is drawn at.
    public static let dpiRange = 10.0...10_000.0

    /// `labelWidth` and `labelHeight` are the largest grid value's size (mm), measured by the
    /// caller in the sheet's fonts; the collar is made deep enough for them.
    /// `bottomHeight`, when given, is the depth of the band below the border (notes, scale,
    /// north arrow): deeper than the default when the notes need it. `mapSize`, when given,
    /// is the most map frame (mm) the sheet needs, as a quadrangle's: the frame and collar
    /// shrink to it, centred in the room there is.
    public init(
        paper: Paper, margins: Double, dpi: Double, labelWidth: Double, labelHeight: Double,
        bottomHeight: Double? = nil, mapSize: (width: Double, height: Double)? = nil
    ) throws(SheetError) {
        guard margins.isFinite, margins >= 0 else { throw .invalidMargins(margins) }
        guard dpi.isFinite, dpi >= SheetLayout.dpiRange.lowerBound, dpi <= SheetLayout.dpiRange.upperBound else {
            throw .dpiOutOfRange(dpi, min: SheetLayout.dpiRange.lowerBound, max: SheetLayout.dpiRange.upperBound)
        }
        guard 2 * margins < paper.width, 2 * margins < paper.height else {
            throw .marginsTooLarge(margins: margins, paperWidth: paper.width, paperHeight: paper.height)
        }
        self.paper = paper
        self.margins = margins
        self.dpi = dpi
        // Sizes are kept as computed (a rectangle's width, maxX - minX, can be an ulp off), so
        // the frame's whole pixels do not depend on how a rectangle stores its edges.
        let contentWidth = paper.width - 2 * margins
        content = Rect(x: margins, y: margins, width: contentWidth, height: paper.height - 2 * margins)
        titleBand = Rect(x: content.minX, y: content.minY, width: contentWidth, height: SheetLayout.titleHeight)
        let outward = FrameGrid.tickLength + FrameGrid.labelGap
        collarTopBottom = outward + labelHeight + 1
        collarSides = outward + labelWidth + 1

        let borderTop = titleBand.maxY + SheetLayout.gap
        // Narrow paper wraps the notes into more lines.
        let standard = contentWidth < 250 ? SheetLayout.bottomHeight + 8 : SheetLayout.bottomHeight
        let bottomHeight = max(standard, bottomHeight ?? 0)
        let borderBottom = content.maxY - bottomHeight - SheetLayout.gap
        let roomWidth = contentWidth - 2 * collarSides
        let roomHeight = borderBottom - borderTop - 2 * collarTopBottom
        guard roomWidth >= SheetLayout.minimumFrame, roomHeight >= SheetLayout.minimumFrame else {
            throw .noRoomForMap(frameWidth: roomWidth, frameHeight: roomHeight, paper: paper.description)
        }
        let frameWidth = min(roomWidth, mapSize?.width ?? roomWidth)
        let frameHeight = min(roomHeight, mapSize?.height ?? roomHeight)
        // Whole pixels, starting on a pixel, centred in the room there is.
        let perPixel = 25.4 / dpi
        pixelWidth = Int(floor(frameWidth / perPixel + 1e-9))
        pixelHeight = Int(floor(frameHeight / perPixel + 1e-9))
        let width = Double(pixelWidth) * perPixel
        let height = Double(pixelHeight) * perPixel
        let x = ((content.minX + collarSides + (roomWidth - width) / 2) / perPixel).rounded() * perPixel
        // A frame smaller than the room hangs below the title, the marginalia below it.
        let top = borderTop + collarTopBottom + (mapSize == nil ? (roomHeight - height) / 2 : 0)
        let y = (top / perPixel).rounded() * perPixel
        frame = Rect(x: x, y: y, width: width, height: height)
        border = Rect(
            x: frame.minX - collarSides, y: frame.minY - collarTopBottom,
            width: width + 2 * collarSides, height: height + 2 * collarTopBottom)

        let bandTop = mapSize == nil ? content.maxY - bottomHeight : border.maxY + SheetLayout.gap
        let band = Rect(x: content.minX, y: bandTop, width: contentWidth, height: bottomHeight)
        // Notes get the most room; the scale and the north arrow take what they need.
        let scaleWidth = min(110, contentWidth * 0.38)
        let northWidth = min(60, contentWidth * 0.24)
        let notesWidth = contentWidth - scaleWidth - northWidth - 2 * SheetLayout.gap
        notes = Rect(x: band.minX, y: band.minY, width: notesWidth, height: bottomHeight)
        scaleBox = Rect(x: notes.maxX + SheetLayout.gap, y: band.minY, width: scaleWidth, height: bottomHeight)
        northBox = Rect(x: scaleBox.maxX + SheetLayout.gap, y: band.minY, width: northWidth, height: bottomHeight)
    }

    /// The frame's size on paper in metres (for scale arithmetic).
    public var frameMetres: (width: Double, height: Double) {
        (Double(pixelWidth) * (25.4 / dpi) / 1000, Double(pixelHeight) * (25.4 / dpi) / 1000)
    }
}
