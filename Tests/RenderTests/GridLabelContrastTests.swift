import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// The default grid styles are readable on the maps they print on: each label's colour
/// against what is under it (its halo laid over the map, or the map itself when it has no
/// halo) has a contrast ratio of at least 4.5:1 (WCAG 2's figure for normal text), measured
/// on the rendered map's own pixels.
@Suite struct GridLabelContrastTests {
    /// WCAG 2 relative luminance of an sRGB colour given as 0...1 channels.
    static func luminance(_ r: Double, _ g: Double, _ b: Double) -> Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    static func ratio(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }

    static let cases: [(map: String, type: GridType, lon: Double, lat: Double, scale: Double)] = [
        ("nyc.json", .mgrs, -73.97, 40.77, 800),
        ("nyc.json", .mgrs, -73.97, 40.77, 6_000),
        ("nyc.json", .usng, -73.95, 40.72, 60_000),
        ("nyc.json", .utm, -73.95, 40.72, 6_000),
        ("world.json", .latlong, 10, 48, 559_082_264.029 / 512),
        ("world.json", .latlong, 10, 48, 559_082_264.029 / 8),
        ("world.json", .mgrs, 10, 48, 559_082_264.029 / 64),
    ]

    @Test func defaultLabelsReachFourAndAHalfToOne() throws {
        for c in Self.cases {
            var document = try MapDocument.load(path: Repository.fixture("maps/\(c.map)"))
            document.grid = nil
            let bare = try MapRenderer(map: try LoadedMap(document: document))
            let view = try View.centered(longitude: c.lon, latitude: c.lat, scale: c.scale, width: 640, height: 480)
            let map = try bare.renderImage(view: view)
            let settings = GridSettings(type: c.type)
            let overlay = GridOverlay(settings: settings, view: view, text: bare.text)
            let levels = overlay.levels()
            let grid = try #require(overlay.geometry(levels))
            let labels = overlay.placedLabels(grid, levels)
            #expect(!labels.isEmpty)
            for label in labels {
                let text = label.color
                let lt = Self.luminance(text.red, text.green, text.blue)
                var ratios: [Double] = []
                let box = view.transform.image(global: label.box)
                for y in max(0, Int(box.minY))..<min(view.height, Int(box.maxY)) {
                    for x in max(0, Int(box.minX))..<min(view.width, Int(box.maxX)) {
                        let p = map[x, y]
                        var r = Double(p.r) / 255
                        var g = Double(p.g) / 255
                        var b = Double(p.b) / 255
                        if let halo = label.halo, halo.width >= 1 {
                            let a = halo.color.alpha
                            r = halo.color.red * a + r * (1 - a)
                            g = halo.color.green * a + g * (1 - a)
                            b = halo.color.blue * a + b * (1 - a)
                        }
                        ratios.append(Self.ratio(lt, Self.luminance(r, g, b)))
                    }
                }
                ratios.sort()
                // The 5th percentile: what nearly all of the label's background reaches.
                let low = ratios.isEmpty ? 0 : ratios[ratios.count / 20]
                #expect(
                    low >= 4.5,
                    "\(c.type) over \(c.map) at 1:\(Int(c.scale)): \(label.text) has contrast \(String(format: "%.2f", low)):1"
                )
            }
        }
    }
}
