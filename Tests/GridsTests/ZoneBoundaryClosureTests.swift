import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// Zone boundaries are closed outlines: where the zone widths change (the Norway exception at
/// 56°N and 64°N, the Svalbard zones at 72°N) the parallel between the meridians that stop
/// there is a boundary too, for UTM as for MGRS. Checked against GeoConvert: along those
/// parallels, wherever the zones a hair north and south differ, a boundary runs there.
@Suite struct ZoneBoundaryClosureTests {
    static let views: [TestView] = [
        .zoom("Norway 56°N", 7, lon: 4.5, lat: 56),
        .zoom("Norway 64°N", 7, lon: 4.5, lat: 64),
        .zoom("Svalbard 72°N", 5, lon: 21, lat: 72),
    ]

    @Test(arguments: views)
    func parallelsWhereZonesChangeAreBoundaries(_ view: TestView) throws {
        let latitude = (view.projection.unproject(view.area.center).latitude).rounded()
        for type in [GridType.utm, .mgrs] {
            let grid = try view.generate(type)
            // The longitude ranges covered by boundary pieces along the parallel.
            var covered: [ClosedRange<Double>] = []
            for line in grid.lines where line.axis == .boundary && line.value == latitude {
                let lons = line.vertices.map(\.position.longitude)
                covered.append(lons.min()!...lons.max()!)
            }
            let geo = GeoBox.bounds(of: view.area, in: view.projection)
            let probes = stride(from: geo.west + 0.05, to: geo.east, by: 0.1).map { $0 }
            let north = try GeoConvert.run(
                ["-u", "-p", "-3"], probes.map { GeoConvert.text(latitude: latitude + 1e-6, longitude: $0) })
            let south = try GeoConvert.run(
                ["-u", "-p", "-3"], probes.map { GeoConvert.text(latitude: latitude - 1e-6, longitude: $0) })
            var missing: [Double] = []
            for (k, lon) in probes.enumerated() {
                let zoneNorth = north[k].split(separator: " ").first.map(String.init) ?? ""
                let zoneSouth = south[k].split(separator: " ").first.map(String.init) ?? ""
                guard zoneNorth != zoneSouth else { continue }
                if !covered.contains(where: { $0.contains(lon) }) { missing.append(lon) }
            }
            #expect(
                missing.isEmpty,
                "\(view) \(type): zones change across \(latitude)° at \(missing.count) longitudes with no boundary, e.g. \(missing.prefix(3))"
            )
        }
    }
}
