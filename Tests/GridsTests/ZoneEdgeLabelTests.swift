import Foundation
import Geodesy
import Testing

@testable import Grids

/// A single image whose centre lies on a UTM zone boundary still labels its easting and
/// northing lines on both sides of it: the repeating labels are placed from the middle of
/// each zone's part of the view, not from the view's centre, which lies on neither side.
@Suite struct ZoneEdgeLabelTests {
    static let views: [TestView] = [
        .scale("1:50,000 on 78°W", 50_000, lon: -78, lat: 40, width: 800, height: 600),
        .scale("1:50,000 on 72°W", 50_000, lon: -72, lat: 42.5, width: 800, height: 600),
        .scale("1:25,000 on 6°E", 25_000, lon: 6.0, lat: 47.2, width: 640, height: 480),
        .scale("1:100,000 on 18°E", 100_000, lon: 18.0, lat: -30, width: 1024, height: 768),
    ]

    @Test(arguments: views)
    func bothZonesLabelTheirLines(_ view: TestView) throws {
        for type in [GridType.utm, .mgrs] {
            let grid = try view.generate(type, anchor: .visiblePart)
            let inView = grid.labels.filter { $0.kind == .line && view.area.contains($0.anchor) }
            // UTM zone numbers: the grid zone designator without its band letter.
            func number(_ zone: String?) -> String { String((zone ?? "").prefix { $0.isNumber }) }
            let zones = Set(grid.lines.filter { $0.axis == .northing }.map { number($0.zone) })
            #expect(zones.count == 2, "\(view) \(type): northing lines in zones \(zones.sorted())")
            for zone in zones {
                for axis in [GridAxis.easting, .northing] {
                    let count = inView.filter { number($0.zone) == zone && $0.axis == axis }.count
                    #expect(count > 0, "\(view) \(type): no \(axis) labels in \(zone)")
                }
            }
        }
    }
}
