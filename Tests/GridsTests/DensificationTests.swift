import Foundation
import Geodesy
import Testing

@testable import Grids

/// A map sheet in transverse Mercator (as Sheets may draw): parallels and other zones' lines
/// are curves on it, unlike on Web Mercator.
struct TransverseMercatorSheet: GridProjection {
    let centralMeridian: Double
    let resolution: Double

    func project(latitude: Double, longitude: Double) -> PlanePoint {
        let p = TransverseMercator.utm.forward(
            centralMeridian: centralMeridian, latitude: latitude, longitude: longitude)
        return PlanePoint(x: p.x / resolution, y: -p.y / resolution)
    }

    func unproject(_ point: PlanePoint) -> GeoPosition {
        TransverseMercator.utm.reverse(
            centralMeridian: centralMeridian, x: point.x * resolution, y: -point.y * resolution
        ).position
    }

    var pixelsPerMetre: Double { 1 / resolution }
    var latitudeRange: ClosedRange<Double> { -90...90 }

    /// The area around a position, `size` pixels square.
    func area(latitude: Double, longitude: Double, size: Double) -> Rect {
        let c = project(latitude: latitude, longitude: longitude)
        return Rect(minX: c.x - size / 2, minY: c.y - size / 2, maxX: c.x + size / 2, maxY: c.y + size / 2)
    }
}

/// Curved lines stay within a quarter pixel of the true curve: between every two vertices,
/// points of the true line (computed afresh from its value) are measured against the chord.
@Suite struct DensificationTests {
    static func distance(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
        return hypot(a.x + t * dx - p.x, a.y + t * dy - p.y)
    }

    /// The worst deviation of a grid's easting/northing and graticule lines from the true
    /// curves, sampling 15 points between each pair of vertices.
    static func worstDeviation<P: GridProjection>(_ grid: GridGeometry, _ projection: P) -> (
        worst: Double, segments: Int
    ) {
        var worst = 0.0
        var segments = 0
        for line in grid.lines {
            let zone: Int
            let north: Bool
            switch line.axis {
            case .easting, .northing:
                let z = line.zone!
                zone = z.first!.isNumber ? Int(z.dropLast())! : 0
                north = zone == 0 ? "YZ".contains(z) : true
            default:
                zone = -1
                north = true
            }
            let meridian =
                line.axis == .longitude
                || (line.axis == .boundary && line.vertices.allSatisfy { $0.position.longitude == line.value })
            // The line as a function of its parameter, computed independently of Grids.
            func point(_ t: Double) -> PlanePoint {
                let position: GeoPosition
                switch line.axis {
                case .easting:
                    position =
                        UTM.unproject(UTMCoordinate(zone: zone, isNorth: north, easting: line.value, northing: t))
                        .position
                case .northing:
                    let n = zone != 0 && line.value >= 10_000_000 ? line.value - 10_000_000 : line.value
                    let value =
                        zone != 0 && !LatitudeBand(letter: line.zone!.last!)!.isNorthern ? line.value - 10_000_000 : n
                    position =
                        UTM.unproject(UTMCoordinate(zone: zone, isNorth: north, easting: t, northing: value)).position
                default:
                    position =
                        meridian
                        ? GeoPosition(latitude: t, longitude: line.value)
                        : GeoPosition(latitude: line.value, longitude: t)
                }
                return projection.project(latitude: position.latitude, longitude: position.longitude)
            }
            func parameter(_ v: GridVertex) -> Double {
                switch line.axis {
                case .easting: return UTM.project(v.position, zone: zone, north: north).northing
                case .northing: return UTM.project(v.position, zone: zone, north: north).easting
                default: return meridian ? v.position.latitude : v.position.longitude
                }
            }
            for (a, b) in zip(line.vertices, line.vertices.dropFirst()) {
                let ta = parameter(a)
                let tb = parameter(b)
                for k in 1..<16 {
                    let p = point(ta + (tb - ta) * Double(k) / 16)
                    worst = max(worst, distance(p, a.point, b.point))
                }
                segments += 1
            }
        }
        return (worst, segments)
    }

    @Test(arguments: TestView.all)
    func linesOnWebMercator(_ view: TestView) throws {
        for type in GridType.allCases {
            let grid = try view.generate(type)
            let (worst, segments) = Self.worstDeviation(grid, view.projection)
            #expect(worst < 0.25, "\(view) \(type): a line strays \(worst) px from its curve")
            #expect(segments > 0)
        }
    }

    /// On a transverse Mercator sheet parallels curve, and the neighbouring zone's lines too.
    @Test(arguments: [(1_000_000.0, 60.0, 14.9), (250_000, 60, 12.1), (25_000, 45, 12.0), (5_000_000, 50, 15)])
    func linesOnATransverseMercatorSheet(scale: Double, latitude: Double, longitude: Double) throws {
        let sheet = TransverseMercatorSheet(centralMeridian: 15, resolution: scale * 0.00028)
        let area = sheet.area(latitude: latitude, longitude: longitude, size: 1200)
        for type in GridType.allCases {
            var request = GridRequest(type: type)
            request.minSpacing = TestView.minSpacing
            request.margin = 4
            let grid = try Grid.generate(request, projection: sheet, area: area)
            let (worst, segments) = Self.worstDeviation(grid, sheet)
            #expect(worst < 0.25, "1:\(scale) \(type): a line strays \(worst) px from its curve")
            #expect(segments > 0)
        }
    }
}
