import Foundation
import Geodesy
import MapModel
import Render

/// Text outside the map: the title band, the notes, the scale. Word wrapping is done here,
/// with sizes measured in the sheet's fonts.
enum Marginalia {
    static let titleFont = PageFont(size: 18, bold: true)
    static let subtitleFont = PageFont(size: 8.5)
    static let notesFont = PageFont(size: 6)
    static let scaleFont = PageFont(size: 15, bold: true)
    static let captionFont = PageFont(size: 6.5)
    static let lineSpacing = 1.25

    static func titleItems(title: String, subtitle: String, in band: Rect) -> [PageItem] {
        [
            .text(
                PageText(
                    title, font: titleFont, at: PlanePoint(x: band.centerX, y: band.minY),
                    anchor: PageTextAnchor(.center, .top))),
            .text(
                PageText(
                    subtitle, font: subtitleFont, at: PlanePoint(x: band.centerX, y: band.maxY - 0.5),
                    anchor: PageTextAnchor(.center, .bottom))),
        ]
    }

    /// Paragraphs wrapped to the box's width, one below the other; lines that would fall
    /// below the box are left out rather than printed over what is beneath.
    static func paragraphs(
        _ paragraphs: [String], font: PageFont, in box: Rect,
        measure: (PageText) -> PageTextSize
    ) -> [PageItem] {
        let lineHeight = font.size * 25.4 / 72 * lineSpacing
        var y = box.minY
        var items: [PageItem] = []
        for paragraph in paragraphs {
            for line in wrap(paragraph, font: font, width: box.width, measure: measure) {
                guard y + lineHeight <= box.maxY + 0.01 else { return items }
                items.append(
                    .text(
                        PageText(
                            line, font: font, at: PlanePoint(x: box.minX, y: y), anchor: PageTextAnchor(.left, .top))))
                y += lineHeight
            }
            y += lineHeight * 0.35
        }
        return items
    }

    /// Greedy word wrap; a single word longer than the width gets a line of its own.
    static func wrap(_ text: String, font: PageFont, width: Double, measure: (PageText) -> PageTextSize) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            let size = measure(
                PageText(candidate, font: font, at: PlanePoint(x: 0, y: 0), anchor: PageTextAnchor(.left, .top)))
            if size.width <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The scale as a ratio, a line saying where it holds, and the scale bar.
    static func scaleItems(scale: Double, caption: String, in box: Rect, measure: (PageText) -> PageTextSize)
        -> [PageItem]
    {
        var items: [PageItem] = [
            .text(
                PageText(
                    ScaleText.ratio(scale), font: scaleFont, at: PlanePoint(x: box.centerX, y: box.minY),
                    anchor: PageTextAnchor(.center, .top))),
            .text(
                PageText(
                    caption, font: captionFont, at: PlanePoint(x: box.centerX, y: box.minY + 7.5),
                    anchor: PageTextAnchor(.center, .top))),
        ]
        // Room for the unit after the bar and the label left of its zero.
        let unitWidth = 18.0
        let bar = ScaleBar(scale: scale, width: box.width - unitWidth - 6)
        let left = box.centerX - (bar.length + unitWidth) / 2
        items += bar.items(zeroAt: PlanePoint(x: left + bar.segmentLength, y: box.minY + 14))
        return items
    }
}
