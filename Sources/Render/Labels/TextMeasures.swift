/// The extents of point label texts measured for placement, kept after their layouts are gone,
/// for one render worker (with its `TextEngine`).
///
/// Placement needs a point label's box, not its glyphs, and every zoom of a pyramid places
/// every label again: at the zooms where a view holds the whole world, each of `make
/// bench-large`'s 300,000 places was shaped by Pango at every zoom (some 28,000 instructions
/// each), while the layouts themselves are kept only for the labels drawn. Here a text is
/// measured once per font and options. An entry is its text and 16 bytes (Pango's units,
/// from which the extents come back bit for bit), and the whole is cleared past `capacity`
/// entries, so it is bounded whatever the data.
final class TextMeasures {
    private struct Style: Hashable {
        let font: FontSpec
        let options: TextOptions
    }

    /// A logical box in Pango units (1/1024 pixel), as Pango gives it.
    private struct Units {
        let x: Int32
        let y: Int32
        let width: Int32
        let height: Int32
    }

    /// The most texts kept (some 45 bytes each with the table; more than a whole-world
    /// view's 300,000 places).
    static let capacity = 1 << 19

    private var measured: [Style: [String: Units]] = [:]
    /// Texts kept.
    private(set) var count = 0
    /// Texts measured (for tests).
    private(set) var measurements = 0

    /// The extents of `text` laid out with `font` and `options`: kept, or `measure`d and kept.
    func extents(_ text: String, font: FontSpec, options: TextOptions, measure: () -> TextExtents) -> TextExtents {
        let style = Style(font: font, options: options)
        if let known = measured[style]?[text] { return TextMeasures.extents(known) }
        let made = measure()
        measurements += 1
        guard let units = TextMeasures.units(made) else { return made }
        if count >= TextMeasures.capacity {
            measured.removeAll()
            count = 0
        }
        measured[style, default: [:]][text] = units
        count += 1
        return made
    }

    private static let scale = 1024.0

    /// Pango's units of `extents` (each is a whole number of them), nil if one is not.
    private static func units(_ extents: TextExtents) -> Units? {
        let values = [extents.x, extents.y, extents.width, extents.height].map { $0 * scale }
        guard values.allSatisfy({ $0.rounded() == $0 && abs($0) < Double(Int32.max) }) else { return nil }
        let units = Units(x: Int32(values[0]), y: Int32(values[1]), width: Int32(values[2]), height: Int32(values[3]))
        // Kept only when it gives the very extents back.
        let back = TextMeasures.extents(units)
        guard back.x == extents.x, back.y == extents.y, back.width == extents.width, back.height == extents.height
        else { return nil }
        return units
    }

    /// The extents as `TextLayout` makes them of Pango's units.
    private static func extents(_ units: Units) -> TextExtents {
        let unit = 1 / scale
        return TextExtents(
            x: Double(units.x) * unit, y: Double(units.y) * unit, width: Double(units.width) * unit,
            height: Double(units.height) * unit)
    }
}
