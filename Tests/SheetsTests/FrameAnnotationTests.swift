import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// The grid's `annotation` on a printed sheet, read back by poppler (`pdftotext -bbox`):
/// latitudes only on the left and right, outside the neatline and turned to read along it
/// (their boxes taller than wide), longitudes inside the neatline at the top, every value in
/// D°M.mm′ and on the parallel or meridian GeoConvert puts where it is printed.
@Suite struct FrameAnnotationTests {
    static let grid = #"""
        {"type": "latlong", "annotation": {"format": "DM.mm", "padding": true,
         "left": {"axis": "latitude", "direction": "along"}, "right": {"axis": "latitude", "direction": "along"},
         "top": {"position": "inside"}, "bottom": {"axis": "longitude"}}}
        """#

    /// `40°46.50′` as degrees.
    static func degrees(_ text: String) -> Double? {
        let pattern = try! NSRegularExpression(pattern: #"^(\d{2,3})°(\d{2}\.\d{2})′$"#)
        guard let m = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        func group(_ i: Int) -> String { String(text[Range(m.range(at: i), in: text)!]) }
        return Double(group(1))! + Double(group(2))! / 60
    }

    @Test func sidesAsAskedOnThePrintedSheet() throws {
        let (sheet, renderer) = try SheetGridTests.sheet(SheetGridTests.map(grid: Self.grid), scale: 25_000)
        let grid = try #require(sheet.grid)
        let frame = sheet.layout.frame
        // Every crossing a value is printed at lies on its line by GeoConvert within 0.05 mm.
        let zone = "18n"
        let crossings = FrameGrid.Side.allCases.flatMap { grid.crossings(annotatedOn: $0) }
        let input = crossings.map { c -> String in
            let q = sheet.transform.plane(c.point)
            return "\(zone) \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))"
        }
        for (c, line) in zip(crossings, try GeoConvert.run(["-g", "-p", "9"], input)) {
            let parts = line.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2)
            let value = grid.lines[c.line].value
            let isLatitude = grid.lines[c.line].axis == .latitude
            let off =
                isLatitude
                ? abs(parts[0] - value) * 111_320 / sheet.scale * 1000
                : abs(parts[1] - value) * 111_320 * cos(parts[0] * .pi / 180) / sheet.scale * 1000
            #expect(off < 0.05, "\(c.side): the crossing of \(value) is \(off) mm off it")
            #expect(isLatitude == (c.side == .left || c.side == .right), "\(c.side) names \(value)")
        }

        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("annotation.pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 100, to: pdf)
        // A value and its hemisphere letter are two words to poppler: one box around both.
        let all = try PDFWord.read(pdf)
        let letters = all.filter { ["N", "S", "E", "W"].contains($0.text) }
        let words = all.filter { Self.degrees($0.text) != nil }.map { word -> PDFWord in
            var word = word
            let b = word.box
            if let letter = letters.first(where: {
                $0.box.minX < b.maxX + 2.5 && $0.box.maxX > b.minX - 2.5 && $0.box.minY < b.maxY + 2.5
                    && $0.box.maxY > b.minY - 2.5
            }) {
                word.box = (
                    min(b.minX, letter.box.minX), min(b.minY, letter.box.minY), max(b.maxX, letter.box.maxX),
                    max(b.maxY, letter.box.maxY)
                )
            }
            return word
        }
        var counts: [String: Int] = [:]
        var positions: [String] = []
        for word in words {
            let value = Self.degrees(word.text)!
            let isLatitude = value < 60  // Manhattan: 40°N, 73°W
            let c = word.centre
            // The corners' coordinates (in the annotation's form too) are no grid values.
            guard (c.x > frame.minX && c.x < frame.maxX) || (c.y > frame.minY && c.y < frame.maxY) else { continue }
            let side: String
            if c.x < frame.minX {
                side = "left"
            } else if c.x > frame.maxX {
                side = "right"
            } else if c.y > frame.maxY {
                side = "bottom"
            } else if c.y > frame.minY, c.y < frame.minY + 8 {
                side = "top inside"
            } else {
                side = "elsewhere"
            }
            counts[side, default: 0] += 1
            let width = word.box.maxX - word.box.minX
            let height = word.box.maxY - word.box.minY
            switch side {
            case "left", "right":
                #expect(isLatitude, "a meridian's value \(word.text) on the \(side)")
                #expect(height > 2 * width, "\(word.text) on the \(side) is not along it: \(width) x \(height) mm")
            case "bottom", "top inside":
                #expect(!isLatitude, "a parallel's value \(word.text) at the \(side)")
                #expect(width > height, "\(word.text) at the \(side) is not horizontal")
            default:
                Issue.record("\(word.text) printed at \(c): not beside the neatline")
                continue
            }
            // On its line: GeoConvert's latitude (longitude) where the word is centred on the
            // neatline is the value printed, within half a millimetre on paper.
            let onNeatline = PlanePoint(
                x: side == "left" ? frame.minX : side == "right" ? frame.maxX : c.x,
                y: side == "bottom" ? frame.maxY : side == "top inside" ? frame.minY : c.y)
            let q = sheet.transform.plane(onNeatline)
            positions.append("\(zone) \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))")
            let expected = try GeoConvert.run(["-g", "-p", "9"], [positions.last!])[0].split(separator: " ")
                .compactMap { Double($0) }
            let off =
                isLatitude
                ? abs(expected[0] - value) * 111_320 / sheet.scale * 1000
                : abs(-expected[1] - value) * 111_320 * cos(expected[0] * .pi / 180) / sheet.scale * 1000
            #expect(off < 0.5, "\(word.text) on the \(side) is printed \(off) mm from its line")
        }
        #expect((counts["left"] ?? 0) >= 2 && (counts["right"] ?? 0) >= 2, "\(counts)")
        #expect((counts["bottom"] ?? 0) >= 2 && (counts["top inside"] ?? 0) >= 2, "\(counts)")
    }

    /// The same sheet without the side keys prints what it always did: the annotation's sides
    /// default to the collar's.
    @Test func sidesDefaultToTheCollar() throws {
        let plain = try SheetGridTests.sheet(SheetGridTests.map(grid: #"{"type": "latlong"}"#))
        let annotated = try SheetGridTests.sheet(
            SheetGridTests.map(grid: #"{"type": "latlong", "annotation": {"left": {}}}"#))
        for side in FrameGrid.Side.allCases {
            let a = try #require(plain.0.grid).sideLabels(
                side, frame: plain.0.layout.frame, collar: plain.0.layout.border, measure: { plain.1.measure($0) })
            let b = try #require(annotated.0.grid).sideLabels(
                side, frame: annotated.0.layout.frame, collar: annotated.0.layout.border,
                measure: { annotated.1.measure($0) })
            #expect(a == b, "\(side)")
        }
    }

    /// A 1:25,000 sheet of Manhattan with D°M.mm′ values turned along its left and right sides
    /// outside the neatline, looked at before it was committed.
    @Test func golden() throws {
        try Support.verifyManhattanSheet(
            "sheet-25k-latlong-annotation", grids: try SheetGridTests.map(grid: Self.grid).document.grids)
    }
}
