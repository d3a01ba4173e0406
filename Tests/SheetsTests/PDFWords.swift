import Foundation
import TestSupport

/// The words of a PDF page and where poppler's `pdftotext -bbox` finds them, in millimetres
/// from the page's top-left corner: an independent reading of where text was printed.
struct PDFWord {
    var text: String
    var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)

    var centre: (x: Double, y: Double) { ((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2) }

    static func read(_ pdf: String) throws -> [PDFWord] {
        let html = try Tool.output("pdftotext", ["-bbox", pdf, "-"])
        let pattern = try NSRegularExpression(
            pattern: #"<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>"#)
        let millimetres = 25.4 / 72
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m in
            func group(_ i: Int) -> String { String(html[Range(m.range(at: i), in: html)!]) }
            let text = group(5).replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
            return PDFWord(
                text: text,
                box: (
                    Double(group(1))! * millimetres, Double(group(2))! * millimetres, Double(group(3))! * millimetres,
                    Double(group(4))! * millimetres
                ))
        }
    }
}
