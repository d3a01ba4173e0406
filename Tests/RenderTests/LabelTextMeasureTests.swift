import MapModel
import TestSupport
import Testing

@testable import Render

@Suite struct LabelTextMeasureTests {
    func engine() throws -> TextEngine {
        let map = try TestMap.load(features: [], layers: [])
        return TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
    }

    /// Extents measured once at the reference size and scaled match Pango's layout at the size
    /// itself (hinting off, positions unrounded): within 1/64 px at label sizes, for plain,
    /// bold, accented and long texts.
    @Test(arguments: ["Stockholm", "Tallinn", "Brooklyn Heights", "Kraków – Łódź", "W"])
    func scaledExtentsMatchALayoutAtTheSize(_ text: String) throws {
        let engine = try engine()
        let measure = LabelTextMeasure(engine: engine)
        for bold in [false, true] {
            for size in [4.0, 7.3, 10, 13.333, 24, 61.5] {
                let font = FontSpec(family: "DejaVu Sans", bold: bold, italic: false, sizePixels: size)
                let scaled = measure.size(text, font: font)
                let exact = TextLayout(context: engine.context, text: text, font: font).extents
                #expect(
                    abs(scaled.width - exact.width) < 1.0 / 64, "\(text) \(size) px: \(scaled.width) vs \(exact.width)")
                #expect(
                    abs(scaled.height - exact.height) < 1.0 / 64,
                    "\(text) \(size) px: \(scaled.height) vs \(exact.height)")
            }
        }
        // One layout per distinct (text, font), whatever the sizes asked for.
        #expect(measure.layouts == 2)
    }
}
