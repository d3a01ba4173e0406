import Foundation
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
    public let content: PageRect
    public let titleBand: PageRect
    /// The outer border around the collar.
    public let border: PageRect
    /// The neatline: the map's frame.
    public let frame: PageRect
    /// The frame's size in pixels at `dpi` (the map view's size).
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// The collar's depth above/below and left/right of the frame.
    public let collarTopBottom: Double
    public let collarSides: Double
    /// The band below the border: notes, scale and north arrow side by side.
    public let notes: PageRect
    public let scaleBox: PageRect
    public let northBox: PageRect

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
    public init(paper: Paper, margins: Double, dpi: Double, labelWidth: Double, labelHeight: Double) throws(SheetError)
    {
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
        content = PageRect(x: margins, y: margins, width: paper.width - 2 * margins, height: paper.height - 2 * margins)
        titleBand = PageRect(x: content.x, y: content.y, width: content.width, height: SheetLayout.titleHeight)
        let outward = FrameGrid.tickLength + FrameGrid.labelGap
        collarTopBottom = outward + labelHeight + 1
        collarSides = outward + labelWidth + 1

        let borderTop = titleBand.maxY + SheetLayout.gap
        // Narrow paper wraps the notes into more lines.
        let bottomHeight = content.width < 250 ? SheetLayout.bottomHeight + 8 : SheetLayout.bottomHeight
        let borderBottom = content.maxY - bottomHeight - SheetLayout.gap
        let frameWidth = content.width - 2 * collarSides
        let frameHeight = borderBottom - borderTop - 2 * collarTopBottom
        guard frameWidth >= SheetLayout.minimumFrame, frameHeight >= SheetLayout.minimumFrame else {
            throw .noRoomForMap(frameWidth: frameWidth, frameHeight: frameHeight, paper: paper.description)
        }
        // Whole pixels, starting on a pixel, centred in the room there is.
        let perPixel = 25.4 / dpi
        pixelWidth = Int(floor(frameWidth / perPixel + 1e-9))
        pixelHeight = Int(floor(frameHeight / perPixel + 1e-9))
        let width = Double(pixelWidth) * perPixel
        let height = Double(pixelHeight) * perPixel
        let x = ((content.x + collarSides + (frameWidth - width) / 2) / perPixel).rounded() * perPixel
        let y = ((borderTop + collarTopBottom + (frameHeight - height) / 2) / perPixel).rounded() * perPixel
        frame = PageRect(x: x, y: y, width: width, height: height)
        border = PageRect(
            x: frame.x - collarSides, y: frame.y - collarTopBottom,
            width: width + 2 * collarSides, height: height + 2 * collarTopBottom)

        let band = PageRect(x: content.x, y: content.maxY - bottomHeight, width: content.width, height: bottomHeight)
        // Notes get the most room; the scale and the north arrow take what they need.
        let scaleWidth = min(110, band.width * 0.38)
        let northWidth = min(60, band.width * 0.24)
        let notesWidth = band.width - scaleWidth - northWidth - 2 * SheetLayout.gap
        notes = PageRect(x: band.x, y: band.y, width: notesWidth, height: band.height)
        scaleBox = PageRect(x: notes.maxX + SheetLayout.gap, y: band.y, width: scaleWidth, height: band.height)
        northBox = PageRect(x: scaleBox.maxX + SheetLayout.gap, y: band.y, width: northWidth, height: band.height)
    }

    /// The frame's size on paper in metres (for scale arithmetic).
    public var frameMetres: (width: Double, height: Double) { (frame.width / 1000, frame.height / 1000) }
}
