import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// A grid value printed the NGA way (`⁴⁵12⁰⁰⁰ᵐN`): the principal digits larger than the
/// prefix and the rest, all standing on one baseline, as poppler rasterises the PDF.
@Suite struct PrincipalDigitsTests {
    @Test func principalDigitsLargerOnTheSameBaseline() throws {
        let renderer = try MapRenderer(map: try Support.blankMap())
        let runs = FrameGrid.label(axis: .northing, value: 4_512_000, interval: 1000, full: true)
        #expect(runs.map(\.text) == ["45", "12", "000mN"])
        #expect(runs[1].font.size > runs[0].font.size && runs[0].font.size == runs[2].font.size)
        let origin = PlanePoint(x: 5, y: 10)
        let anchor = PageTextAnchor(.left, .baseline)
        let page = Page(width: 60, height: 16, items: [.text(PageText(runs, at: origin, anchor: anchor))])
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("label.pdf").path
        try PageWriter.write(page, renderer: renderer, dpi: 600, to: pdf)
        let dpi = 600.0
        let image = try Support.rasterise(pdf: pdf, dpi: Int(dpi))
        let px = dpi / 25.4
        // Where each run lies along the line, from the widths of its leading runs.
        func width(_ n: Int) -> Double {
            renderer.measure(PageText(Array(runs.prefix(n)), at: origin, anchor: anchor)).width
        }
        func ink(_ from: Double, _ to: Double) -> (top: Int, bottom: Int) {
            var top = Int.max
            var bottom = 0
            for x in Int((origin.x + from) * px + 2)..<Int((origin.x + to) * px - 2) {
                for y in 0..<image.height where image.darkness(x, y) > 0.5 {
                    top = min(top, y)
                    bottom = max(bottom, y)
                }
            }
            return (top, bottom)
        }
        let prefix = ink(0, width(1))
        let principal = ink(width(1), width(2))
        // "000m": the N is left out (a capital stands as tall as the digits anyway).
        let suffix = ink(width(2), width(2) + (width(3) - width(2)) * 0.75)
        for (name, part) in [("principal", principal), ("suffix", suffix)] {
            #expect(
                abs(part.bottom - prefix.bottom) <= 1,
                "the \(name) digits stand at \(part.bottom), the prefix at \(prefix.bottom)")
        }
        // The baseline is where the text was anchored.
        #expect(abs(Double(prefix.bottom + 1) / px - origin.y) < 0.1)
        let ratio = Double(principal.bottom - principal.top) / Double(prefix.bottom - prefix.top)
        #expect(abs(ratio - runs[1].font.size / runs[0].font.size) < 0.08, "principal/prefix height \(ratio)")
    }
}
