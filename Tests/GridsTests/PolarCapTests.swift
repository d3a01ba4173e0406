import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// The UPS caps where they meet the 180° meridian: thin strips across it north of 84°N and
/// south of 80°S, at 1:2,000,000 to 1:8,000,000. No line may leap across the map (a vertex
/// on the wrong side of 180° joins the map's two ends), and every cap square and zone label
/// reads what GeoConvert reads where it stands.
@Suite struct PolarCapTests {
    static let views: [TestView] = {
        var views: [TestView] = []
        for scale in [2_000_000.0, 4_000_000, 8_000_000] {
            for (lon, lat) in [(179.6, -83.0), (-179.6, -83.0), (179.8, -84.5), (-179.9, -81.0), (179.7, 84.6)] {
                views.append(
                    .scale(
                        "1:\(Int(scale)) at \(lon),\(lat)", scale, lon: lon, lat: lat, width: 256,
                        height: lat > 0 ? 96 : 512))
            }
        }
        return views
    }()

    /// Consecutive vertices of a line never lie more than 90° of longitude apart.
    @Test(arguments: views)
    func linesStayOnTheirSideOf180(_ view: TestView) throws {
        for type in [GridType.utm, .mgrs] {
            for anchor in [GridRequest.CellAnchor.fixed, .visiblePart] {
                let grid = try view.generate(type, anchor: anchor)
                for line in grid.lines {
                    for (a, b) in zip(line.vertices, line.vertices.dropFirst())
                    where abs(a.position.longitude - b.position.longitude) > 90 {
                        Issue.record(
                            "\(view) \(type): \(line.axis) \(line.value) in \(line.zone ?? "-") jumps from \(a.position) to \(b.position)"
                        )
                        break
                    }
                }
            }
        }
    }

    /// Square and zone labels read what `GeoConvert -m` reads at their positions, and lie
    /// near the view (never 180° away).
    @Test(arguments: views)
    func capLabelsMatchGeoConvert(_ view: TestView) throws {
        for anchor in [GridRequest.CellAnchor.fixed, .visiblePart] {
            let grid = try view.generate(.mgrs, anchor: anchor)
            let cells = grid.labels.filter { $0.kind == .cell }
            guard !cells.isEmpty else { continue }
            let reach = view.area.expanded(by: 1024)
            for label in cells {
                #expect(reach.contains(label.anchor), "\(view) \(anchor): \(label.text) lands at \(label.position)")
            }
            let answers = try GeoConvert.run(
                ["-m", "-p", "-5"],
                cells.map { GeoConvert.text(latitude: $0.position.latitude, longitude: $0.position.longitude) })
            for (label, square) in zip(cells, answers) {
                if label.level == 0 {
                    #expect(square.hasPrefix(label.text), "\(view) \(anchor): zone \(label.text), GeoConvert \(square)")
                } else {
                    #expect(
                        square.hasSuffix(label.text),
                        "\(view) \(anchor): square \(label.text) at \(label.position), GeoConvert \(square)")
                }
            }
        }
    }
}
