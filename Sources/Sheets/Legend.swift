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
        var layer: Layer
    }

    /// The layers drawn at `scale` that have a symbol to show, first listed first.
    static func entries(_ document: MapDocument, scale: Double) -> [Entry] {
        var seen = Set<String>()
        return document.layers.compactMap { layer in
            guard layer.isVisible(atScale: scale), layer.fill != nil || layer.line != nil || layer.marker != nil,
                seen.insert(layer.name).inserted
            else { return nil }
            return Entry(name: layer.name, layer: layer)
        }
    }

    static func stroke(_ line: LineSymbol) -> PageStroke {
        PageStroke(
            color: line.color.withOpacity(line.opacity), width: min(0.6, line.width * mmPerPoint),
            dash: line.dash.map { $0 * mmPerPoint })
    }

    /// The legend in `box`; rows that do not fit are left out.
    static func items(_ entries: [Entry], in box: Rect) -> [PageItem] {
        guard !entries.isEmpty else { return [] }
        var items: [PageItem] = [
            .text(
                PageText(
                    "Legend", font: titleFont, at: PlanePoint(x: box.minX, y: box.minY),
                    anchor: PageTextAnchor(.left, .top)))
        ]
        var y = box.minY + 4
        for entry in entries {
            guard y + rowHeight <= box.maxY + 0.01 else { break }
            let r = Rect(
                x: box.minX, y: y + (rowHeight - swatch.height) / 2, width: swatch.width, height: swatch.height)
            let layer = entry.layer
            if let fill = layer.fill {
                items.append(
                    .path(
                        [PagePolyline(r.corners, closed: true)], stroke: fill.outline.map(stroke),
                        fill: fill.color.withOpacity(fill.opacity)))
            } else if let line = layer.line {
                items.append(
                    .path(
                        [PagePolyline([PlanePoint(x: r.minX, y: r.centerY), PlanePoint(x: r.maxX, y: r.centerY)])],
                        stroke: stroke(line),
                        fill: nil))
            }
            if let marker = layer.marker {
                let radius = min(1.4, max(0.6, marker.size * mmPerPoint / 2))
                let circle = (0..<24).map { i -> PlanePoint in
                    let a = Double(i) / 24 * 2 * .pi
                    return PlanePoint(x: r.centerX + radius * cos(a), y: r.centerY + radius * sin(a))
                }
                items.append(
                    .path([PagePolyline(circle, closed: true)], stroke: marker.outline.map(stroke), fill: marker.fill))
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
