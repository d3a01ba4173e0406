import MapModel
import Synchronization

/// The extents of point label texts measured for placement, kept after their layouts are gone,
/// for the render workers of one map (`shared(by:)`), each measuring with its own `TextEngine`.
///
/// Placement needs a point label's box, not its glyphs, and every zoom of a pyramid places
/// every label again: at the zooms where a view holds the whole world, each of `make
/// bench-large`'s 300,000 places was shaped by Pango at every zoom (some 28,000 instructions
/// each), while the layouts themselves are kept only for the labels drawn. Here a text is
/// measured once per font and options. An entry is its text and 16 bytes (Pango's units,
/// from which the extents come back bit for bit), and the whole is cleared past `capacity`
/// entries, so it is bounded whatever the data.
///
/// One table serves every worker of a map (behind a lock; a text is measured outside it):
/// each worker kept its own, the same texts, some 13 MB a worker for the benchmark's 300,000
/// places, and every worker measured each text once more. Extents do not depend on the
/// worker: each lays out with the same fonts and options, and Pango gives the same units.
final class TextMeasures: Sendable {
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

    private struct Table {
        var measured: [Style: [String: Units]] = [:]
        var count = 0
        var measurements = 0
    }

    private let table = Mutex(Table())
    /// Texts kept.
    var count: Int { table.withLock { $0.count } }
    /// Texts measured (for tests).
    var measurements: Int { table.withLock { $0.measurements } }

    /// The extents of `text` laid out with `font` and `options`: kept, or `measure`d and kept.
    func extents(_ text: String, font: FontSpec, options: TextOptions, measure: () -> TextExtents) -> TextExtents {
        let style = Style(font: font, options: options)
        if let known = table.withLock({ $0.measured[style]?[text] }) { return TextMeasures.extents(known) }
        let made = measure()
        let units = TextMeasures.units(made)
        table.withLock { table in
            table.measurements += 1
            guard let units, table.measured[style]?[text] == nil else { return }
            if table.count >= TextMeasures.capacity {
                table.measured.removeAll()
                table.count = 0
            }
            table.measured[style, default: [:]][text] = units
            table.count += 1
        }
        return made
    }

    /// The table of `map`'s workers: made by the first, kept while one of them keeps it.
    static func shared(by map: LoadedMap) -> TextMeasures {
        let key = ObjectIdentifier(map)
        return tables.withLock { tables in
            // Tables of maps gone (their workers with them) are let go as others come.
            tables = tables.filter { $0.value.measures != nil && $0.value.map != nil }
            if let entry = tables[key], entry.map === map, let measures = entry.measures { return measures }
            let measures = TextMeasures()
            tables[key] = SharedEntry(map: map, measures: measures)
            return measures
        }
    }

    /// Weak: a table lives as long as the workers (`TextEngine`s) that hold it.
    private struct SharedEntry {
        weak var map: LoadedMap?
        weak var measures: TextMeasures?
    }

    private static let tables = Mutex<[ObjectIdentifier: SharedEntry]>([:])

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
