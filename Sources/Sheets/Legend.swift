import Foundation
import Geodesy
import MapModel
import Render

/// The legend: one swatch per map layer drawn at the sheet's scale, with the layer's name,
/// in the symbols' own colours. Swatches show the symbol's kind and colours at a fixed size
/// (line widths and dashes as authored, capped so a wide casing stays a swatch).
enum Legend {
    static let titleFont = PageFont(size: 6.5, bold: true)
    static let font = PageFont(size: 6)
    static let rowHeight = 3.6
    static let swatch = (width: 6.0, height: 2.8)
    static let mmPerPoint = 25.4 / 72

    struct Entry {
        var name: String
        /// The first fill, stroke and marker of the rules drawn at the sheet's scale.
        var fill: FillStyle?
        var line: LineStyle?
        var marker: MarkerStyle?
        /// Values as features without attributes get them at the sheet's zoom.
        var values: EvaluationContext
    }

    /// The layers drawn at `scale` that have a symbol to show, first listed first.
    static func entries(_ document: MapDocument, scale: Double) -> [Entry] {
        var seen = Set<String>()
        return document.layers.compactMap { layer in
            let rules = layer.rules(atScale: scale).map { layer.rules[$0] }.filter(\.drawsFeatures)
            guard layer.isVisible(atScale: scale), !rules.isEmpty, seen.insert(layer.name).inserted else { return nil }
            return Entry(
                name: layer.title ?? layer.name, fill: rules.compactMap(\.fill).first,
                line: rules.flatMap(\.lines).first,
                marker: rules.compactMap(\.marker).first, values: EvaluationContext(zoom: ZoomScale.zoom(scale: scale)))
        }
    }

    static func stroke(_ line: LineStyle, _ values: EvaluationContext) -> PageStroke {
        let width = line.width.value(values)
        return PageStroke(
            color: line.color.value(values).withOpacity(line.opacity.value(values)),
            width: min(0.6, width * mmPerPoint),
            dash: line.dash.map { $0 * mmPerPoint * (line.dashUnit == .width ? width : 1) })
    }

    /// How deep (mm) a legend of `rows` rows is: its title and the rows.
    static func height(rows: Int) -> Double { 4 + Double(rows) * rowHeight }

    /// The legend in `box`; rows that do not fit are left out.
    static func items(_ entries: [Entry], in box: Rect) -> [PageItem] {
        guard !entries.isEmpty else { return [] }
        var items: [PageItem] = [
            .text(
                PageText(
                    "Legend", font: titleFont, at: PlanePoint(x: box.minX, y: box.minY),
                    anchor: PageTextAnchor(.left, .top)))
        ]
        var y = box.minY + height(rows: 0)
        for entry in entries {
            guard y + rowHeight <= box.maxY + 0.01 else { break }
            let r = Rect(
                x: box.minX, y: y + (rowHeight - swatch.height) / 2, width: swatch.width, height: swatch.height)
            let values = entry.values
            if let fill = entry.fill {
                items.append(
                    .path(
                        [PagePolyline(r.corners, closed: true)], stroke: fill.outline.map { stroke($0, values) },
                        fill: fill.color.value(values).withOpacity(fill.opacity.value(values))))
            } else if let line = entry.line {
                items.append(
                    .path(
                        [PagePolyline([PlanePoint(x: r.minX, y: r.centerY), PlanePoint(x: r.maxX, y: r.centerY)])],
                        stroke: stroke(line, values),
                        fill: nil))
            }
            if let marker = entry.marker {
                let size = marker.size?.value(values) ?? MarkerStyle.defaultShapeSize
                let radius = min(1.4, max(0.6, size * mmPerPoint / 2))
                let circle = (0..<24).map { i -> PlanePoint in
                    let a = Double(i) / 24 * 2 * .pi
                    return PlanePoint(x: r.centerX + radius * cos(a), y: r.centerY + radius * sin(a))
                }
                items.append(
                    .path(
                        [PagePolyline(circle, closed: true)], stroke: marker.outline.map { stroke($0, values) },
                        fill: marker.fill.value(values)))
            }
            items.append(
                .text(
                    PageText(
                        entry.name, font: font, at: PlanePoint(x: r.maxX + 2, y: y + rowHeight / 2),
                        anchor: PageTextAnchor(.left, .middle))))
            y += rowHeight
        }
        return items
    }
}
