import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// The grid's labels as a reader meets them: every 100 km square in view is named, crowded
/// labels thin to every n-th line (evenly spaced), labels without a halo keep a gap, one
/// edge writes its decimal degrees to one number of places, and an Arctic view shows parallels.
@Suite struct GridLabelRuleTests {
    static func text() throws -> TextEngine {
        let map = try MapDocument.load(path: Repository.fixture("maps/nyc.json"))
        return TextEngine(fonts: try FontConfiguration(fonts: map.fonts, systemFonts: false))
    }

    static func placed(_ settings: GridSettings, _ view: View, _ text: TextEngine) throws -> (
        GridGeometry, [GridLabelCandidate]
    ) {
        let overlay = GridOverlay(settings: settings, view: view, text: text)
        let levels = overlay.levels()
        let grid = try #require(overlay.geometry(levels))
        return (grid, overlay.placedLabels(grid, levels))
    }

    /// Every 100 km square that covers a twentieth of the view is named by a label that
    /// ends with its letters (`WL`, or `18TWL` where one label names the zone and the square).
    @Test func everySquareInViewIsNamed() throws {
        let text = try Self.text()
        for (lon, lat) in [(-73.97, 40.77), (-73.9, 40.7), (-74.1, 40.85), (-73.75, 40.6)] {
            for (width, height) in [(512, 384), (800, 600), (1024, 768), (300, 900)] {
                for position in [GridSettings.LabelPosition.geographic, .bottomLeft, .allSides] {
                    let view = try View.centered(
                        longitude: lon, latitude: lat, scale: 150_000, width: width, height: height)
                    var settings = GridSettings(type: .mgrs)
                    settings.labelPosition = position
                    let (_, labels) = try Self.placed(settings, view, text)
                    var probes: [String] = []
                    for i in 0..<20 {
                        for j in 0..<20 {
                            let g = view.globalBounds
                            let p = PlanePoint(
                                x: g.minX + g.width * (Double(i) + 0.5) / 20,
                                y: g.minY + g.height * (Double(j) + 0.5) / 20)
                            let geo = WebMercator.inverse(view.mercator(globalPixel: p))
                            probes.append(GeoConvert.text(latitude: geo.latitude, longitude: geo.longitude))
                        }
                    }
                    let squares = try GeoConvert.run(["-m", "-p", "-5"], probes)
                    var counts: [String: Int] = [:]
                    for s in squares { counts[String(s.suffix(2)), default: 0] += 1 }
                    for (square, count) in counts where count >= 20 {
                        #expect(
                            labels.contains { $0.text.hasSuffix(square) },
                            "\(width)x\(height) at \(lon),\(lat), \(position): square \(square) (\(count)/400 of the view) is not named"
                        )
                    }
                }
            }
        }
    }

    /// Labels along one edge that survive thinning are evenly spaced: every n-th line, so
    /// the gaps between their lines are all the same.
    @Test func thinnedEdgeLabelsAreEven() throws {
        let text = try Self.text()
        let cases: [(GridType, View)] = [
            (
                .latlong,
                try View.centered(longitude: 10, latitude: 48, scale: 559_082_264.029 / 64, width: 700, height: 300)
            ),
            (
                .latlong,
                try View.centered(longitude: 10, latitude: 48, scale: 559_082_264.029 / 512, width: 700, height: 300)
            ),
            (.utm, try View.centered(longitude: -73.97, latitude: 40.77, scale: 70_000, width: 900, height: 300)),
            (.mgrs, try View.centered(longitude: -73.97, latitude: 40.77, scale: 300_000, width: 900, height: 300)),
        ]
        for (type, view) in cases {
            var settings = GridSettings(type: type)
            settings.labelPosition = .allSides
            let (grid, labels) = try Self.placed(settings, view, text)
            _ = grid
            let bottom = labels.filter { view.globalBounds.maxY - $0.box.maxY < 6 }.map(\.anchor.x).sorted()
            guard bottom.count >= 3 else {
                Issue.record("\(type) at 1:\(Int(view.scale)): \(bottom.count) labels along the bottom")
                continue
            }
            let gaps = zip(bottom, bottom.dropFirst()).map { $1 - $0 }
            let smallest = gaps.min()!
            for gap in gaps {
                // Web Mercator keeps meridians evenly spaced; UTM lines differ by a hair.
                #expect(
                    abs(gap - smallest) < max(2, smallest * 0.02),
                    "\(type) at 1:\(Int(view.scale)): gaps along the bottom \(gaps.map { Int($0) })")
            }
        }
    }

    /// Labels without a halo are not packed edge to edge: at least 2 pixels apart, and 2
    /// pixels from the image's edge.
    @Test func unhaloedLabelsKeepAGap() throws {
        let text = try Self.text()
        for type in [GridType.latlong, .mgrs] {
            var settings = GridSettings(type: type)
            settings.labelPosition = .allSides
            for level in 0..<GridSettings.levelCount(type) {
                var o = GridLevelOverride()
                o.haloWidth = 0
                settings.levels[level] = o
            }
            // A halo of width 0 is no halo.
            for view in [
                try View.centered(longitude: 10, latitude: 48, scale: 559_082_264.029 / 64, width: 700, height: 300),
                try View.centered(longitude: -73.97, latitude: 40.77, scale: 300_000, width: 900, height: 300),
            ] {
                let (_, labels) = try Self.placed(settings, view, text)
                let g = view.globalBounds
                for (i, a) in labels.enumerated() {
                    let t = a.textBox
                    #expect(
                        t.minX - g.minX >= 2 && t.minY - g.minY >= 2 && g.maxX - t.maxX >= 2 && g.maxY - t.maxY >= 2,
                        "\(type): \(a.text) touches the edge")
                    for b in labels[(i + 1)...] {
                        #expect(
                            !t.expanded(by: 1).overlaps(b.textBox.expanded(by: 1)),
                            "\(type): \(a.text) and \(b.text) are less than 2 px apart")
                    }
                }
            }
        }
    }

    /// Decimal-degree labels along one edge all have the same number of decimals.
    @Test func decimalDegreesAlongAnEdgeAgree() throws {
        let text = try Self.text()
        var settings = GridSettings(type: .latlong)
        settings.labelFormat = .decimalDegrees
        settings.labelPosition = .allSides
        for z in [6.0, 7, 9, 11] {
            let view = try View.centered(
                longitude: 10.3, latitude: 48.2, scale: 559_082_264.029 / pow(2, z), width: 700, height: 500)
            let (grid, labels) = try Self.placed(settings, view, text)
            _ = grid
            let g = view.globalBounds
            for side in ["bottom", "left"] {
                let along = labels.filter {
                    side == "bottom" ? g.maxY - $0.box.maxY < 6 : $0.box.minX - g.minX < 6
                }
                let places = Set(
                    along.map { label -> Int in
                        let number = label.text.prefix { $0 != "°" }
                        return number.firstIndex(of: ".").map { number.distance(from: $0, to: number.endIndex) - 1 }
                            ?? 0
                    })
                #expect(places.count <= 1, "zoom \(z), \(side): \(along.map(\.text))")
            }
        }
    }

    /// A latitude/longitude view in the Arctic shows parallels and labels its meridians, as
    /// a view at the equator does: Web Mercator draws parallels farther apart there, so the
    /// grid draws finer ones.
    @Test func arcticViewsShowParallels() throws {
        let text = try Self.text()
        for z in [6.0, 8, 10, 12] {
            for lat in [72.0, 80, 84] {
                let view = try View.centered(
                    longitude: 20.1, latitude: lat, scale: 559_082_264.029 / pow(2, z), width: 600, height: 400)
                let (grid, labels) = try Self.placed(GridSettings(type: .latlong), view, text)
                let parallels = grid.lines.filter { line in
                    line.axis == .latitude && line.vertices.contains { view.globalBounds.contains($0.point) }
                }
                let values = Set(parallels.map(\.value))
                #expect(values.count >= 2, "zoom \(z) at \(lat)°N: parallels \(values.sorted())")
                let meridianLabels = labels.filter { $0.text.hasSuffix("E") || $0.text.hasSuffix("W") }
                #expect(!meridianLabels.isEmpty, "zoom \(z) at \(lat)°N: no meridian labels")
            }
        }
    }
}
