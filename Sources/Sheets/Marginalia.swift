import Foundation
import Geodesy
import MapModel
import Render

/// Text outside the map: the title band, the notes, the scale. Word wrapping is done here,
/// with sizes measured in the sheet's fonts.
enum Marginalia {
    static let titleFont = PageFont(size: 18, bold: true)
    static let subtitleFont = PageFont(size: 8.5)
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

    /// The notes fonts, largest first: the notes are set in the largest that fits their box.
    static let notesSizes = [6.0, 5.5, 5.0]

    /// Paragraphs wrapped to the box's width in the largest notes font that fits them all;
    /// when even the smallest does not, they are set in it anyway and `shortfall` says how
    /// many millimetres deeper the box must be (the caller makes room and lays out again).
    static func fittedParagraphs(
        _ paragraphs: [String], in box: Rect, measure: (PageText) -> PageTextSize
    ) -> (items: [PageItem], shortfall: Double) {
        var set: (items: [PageItem], height: Double) = ([], 0)
        for size in notesSizes {
            set = self.paragraphs(paragraphs, font: PageFont(size: size), in: box, measure: measure)
            if set.height <= box.height + 0.01 { return (set.items, 0) }
        }
        return (set.items, set.height - box.height)
    }

    /// Paragraphs wrapped to the box's width, one below the other, and their depth.
    static func paragraphs(
        _ paragraphs: [String], font: PageFont, in box: Rect,
        measure: (PageText) -> PageTextSize
    ) -> (items: [PageItem], height: Double) {
        let lineHeight = font.size * 25.4 / 72 * lineSpacing
        var y = box.minY
        var items: [PageItem] = []
        for (index, paragraph) in paragraphs.enumerated() {
            if index > 0 { y += lineHeight * 0.35 }
            for line in wrap(paragraph, font: font, width: box.width, measure: measure) {
                items.append(
                    .text(
                        PageText(
                            line, font: font, at: PlanePoint(x: box.minX, y: y), anchor: PageTextAnchor(.left, .top))))
                y += lineHeight
            }
        }
        return (items, y - box.minY)
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
        // Kilometres, statute miles and nautical miles, one under the other with their zeros
        // aligned; room for the unit name after the bars and the labels left of the zeros.
        let unitWidth = 21.0
        let width = box.width - unitWidth - 6
        let bars = ScaleBar.Unit.allCases.map { ScaleBar(scale: scale, width: width, unit: $0) }
        let left = bars.map(\.segmentLength).max() ?? 0
        let right = bars.map { $0.length - $0.segmentLength }.max() ?? 0
        let zeroX = box.centerX - (left + right + unitWidth) / 2 + left
        for (i, bar) in bars.enumerated() {
            items += bar.items(
                zeroAt: PlanePoint(x: zeroX, y: box.minY + 12.5 + 6.5 * Double(i)), unitX: zeroX + right + 3.5)
        }
        return items
    }
}
