import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// The grid against GeographicLib's GeoConvert: every vertex of every easting and northing
/// line converted back in the line's own zone lies on the line's value; every zone boundary
/// lies on its meridian or parallel and separates the zones GeoConvert says it separates;
/// zone and square labels read what GeoConvert reads at their positions.
@Suite struct GeoConvertVerificationTests {
    /// `-z` argument for a line's zone: `18n`/`18s` (the hemisphere of its band), or `0` for UPS.
    static func zoneArgument(_ designator: String) -> String {
        guard let first = designator.first, first.isNumber else { return "0" }
        let zone = Int(designator.dropLast())!
        let band = LatitudeBand(letter: designator.last!)!
        return "\(zone)\(band.isNorthern ? "n" : "s")"
    }

    @Test(arguments: TestView.all)
    func eastingAndNorthingVerticesLieOnTheirValues(_ view: TestView) throws {
        for type in [GridType.utm, .mgrs] {
            let grid = try view.generate(type)
            var byZone: [String: [(line: GridLine, vertex: GridVertex)]] = [:]
            for line in grid.lines where line.axis == .easting || line.axis == .northing {
                for v in line.vertices { byZone[Self.zoneArgument(line.zone!), default: []].append((line, v)) }
            }
            var checked = 0
            for (zone, items) in byZone {
                let out = try GeoConvert.run(
                    ["-u", "-z", zone, "-p", "4"],
                    items.map {
                        GeoConvert.text(latitude: $0.vertex.position.latitude, longitude: $0.vertex.position.longitude)
                    })
                for (item, text) in zip(items, out) {
                    let parts = text.split(separator: " ")
                    guard parts.count == 3, let e = Double(parts[1]), let n = Double(parts[2]) else {
                        Issue.record("\(view) \(type): GeoConvert said '\(text)' for \(item.vertex.position)")
                        continue
                    }
                    let got = item.line.axis == .easting ? e : n
                    #expect(
                        abs(got - item.line.value) < 0.01,
                        "\(view) \(type): \(item.line.axis) \(item.line.value) in \(item.line.zone!) has a vertex at \(got)"
                    )
                    checked += 1
                }
            }
            if view.name != "world" { #expect(checked > 0, "\(view) \(type): no easting/northing lines") }
        }
    }

    /// Lines stop at their grid zone's edges: between any two vertices of a piece, GeoConvert
    /// finds the piece's own grid zone (the Norway and Svalbard exceptions and the caps included).
    @Test(arguments: TestView.all)
    func linesStayInTheirZone(_ view: TestView) throws {
        let grid = try view.generate(.mgrs)
        var probes: [String] = []
        var zones: [String] = []
        for line in grid.lines where line.axis == .easting || line.axis == .northing {
            for (a, b) in zip(line.vertices, line.vertices.dropFirst()) {
                probes.append(
                    GeoConvert.text(
                        latitude: (a.position.latitude + b.position.latitude) / 2,
                        longitude: (a.position.longitude + b.position.longitude) / 2))
                zones.append(line.zone!)
            }
        }
        guard !probes.isEmpty else { return }
        let found = try GeoConvert.run(["-m", "-p", "-6"], probes)
        var wrong = 0
        for (k, zone) in zones.enumerated() where found[k] != zone {
            if wrong < 5 {
                Issue.record("\(view): a piece of a line in \(zone) runs through \(found[k]) at \(probes[k])")
            }
            wrong += 1
        }
        #expect(wrong == 0, "\(view): \(wrong) of \(probes.count) segments outside their zone")
    }

    /// Zone boundaries: on their meridian or parallel exactly, and GeoConvert puts the two sides
    /// in different grid zones, the east or north side in the line's zone.
    @Test(arguments: TestView.all)
    func boundariesSeparateGeoConvertsZones(_ view: TestView) throws {
        for type in [GridType.utm, .mgrs] {
            let grid = try view.generate(type)
            var probes: [String] = []
            var expected: [(line: GridLine, meridian: Bool)] = []
            for line in grid.lines where line.axis == .boundary {
                let meridian = line.vertices.allSatisfy { $0.position.longitude == line.value }
                let parallel = line.vertices.allSatisfy { $0.position.latitude == line.value }
                #expect(
                    meridian || parallel, "\(view) \(type): boundary \(line.value) strays from its meridian or parallel"
                )
                // Probe the middle of the piece, a hair to each side (1e-7° ≈ 1 cm).
                let mid = line.vertices[line.vertices.count / 2].position
                let mid2 = line.vertices[(line.vertices.count - 1) / 2].position
                let p = GeoPosition(
                    latitude: (mid.latitude + mid2.latitude) / 2, longitude: (mid.longitude + mid2.longitude) / 2)
                guard abs(p.latitude) < 89.9 else { continue }
                let eps = 1e-7
                if meridian {
                    let east = p.longitude + eps > 180 ? p.longitude + eps - 360 : p.longitude + eps
                    let west = p.longitude - eps < -180 ? p.longitude - eps + 360 : p.longitude - eps
                    probes += [
                        GeoConvert.text(latitude: p.latitude, longitude: east),
                        GeoConvert.text(latitude: p.latitude, longitude: west),
                    ]
                } else {
                    probes += [
                        GeoConvert.text(latitude: p.latitude + eps, longitude: p.longitude),
                        GeoConvert.text(latitude: p.latitude - eps, longitude: p.longitude),
                    ]
                }
                expected.append((line, meridian))
            }
            guard !probes.isEmpty else { continue }
            let zones = try GeoConvert.run(["-m", "-p", "-6"], probes)
            for (k, item) in expected.enumerated() {
                let after = zones[2 * k]
                let before = zones[2 * k + 1]
                if type == .mgrs || item.meridian {
                    #expect(
                        after != before,
                        "\(view) \(type): \(item.meridian ? "meridian" : "parallel") \(item.line.value) has \(after) on both sides"
                    )
                } else {
                    // UTM parallels: the equator changes hemisphere, 84°N and 80°S leave UTM for
                    // UPS, and elsewhere (56°N, 64°N, 72°N) the zone number changes.
                    let changes: Bool
                    switch item.line.value {
                    case 0: changes = (after.last! >= "N") != (before.last! >= "N")
                    case 84, -80: changes = after.first!.isNumber != before.first!.isNumber
                    default: changes = after.dropLast() != before.dropLast()
                    }
                    #expect(changes, "\(view) \(type): parallel \(item.line.value) between \(before) and \(after)")
                }
                #expect(
                    after == item.line.zone,
                    "\(view) \(type): boundary \(item.line.value) is named \(item.line.zone ?? "-"), GeoConvert says \(after) beyond it"
                )
            }
        }
    }

    /// Grid zone and 100 km square labels read what GeoConvert reads where they stand.
    @Test(arguments: TestView.all)
    func cellLabelsMatchGeoConvert(_ view: TestView) throws {
        for anchor in [GridRequest.CellAnchor.fixed, .visiblePart] {
            let grid = try view.generate(.mgrs, anchor: anchor)
            let cells = grid.labels.filter { $0.kind == .cell }
            guard !cells.isEmpty else { continue }
            let input = cells.map { GeoConvert.text(latitude: $0.position.latitude, longitude: $0.position.longitude) }
            let squares = try GeoConvert.run(["-m", "-p", "-5"], input)
            for (label, square) in zip(cells, squares) {
                switch label.level {
                case 0 where label.text.count > 3 && label.text.first!.isNumber:
                    #expect(label.text == square, "\(view): merged label \(label.text), GeoConvert \(square)")
                case 0:
                    // UPS designators are one letter; GeoConvert writes them first.
                    #expect(square.hasPrefix(label.text), "\(view): zone label \(label.text), GeoConvert \(square)")
                default:
                    #expect(
                        square.hasSuffix(label.text),
                        "\(view): square label \(label.text) at \(label.position), GeoConvert \(square)")
                }
            }
        }
    }
}
