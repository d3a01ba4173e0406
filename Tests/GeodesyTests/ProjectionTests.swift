import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// The projections on their own: the Krüger series against the exact transverse Mercator,
/// UPS, Web Mercator.
@Suite struct ProjectionTests {
    /// TransverseMercatorProj computes the exact projection with elliptic functions, an
    /// independent method. The series must agree to nanometres within a zone (3.5° of the
    /// central meridian) and up to 15° out (the reference prints 1 nm, and a double
    /// near 10,000 km resolves 2 nm).
    @Test func seriesAgreesWithTheExactProjection() throws {
        let rows = try GeoConvertVectors.rows("tm-exact.tsv")
        #expect(rows.count >= 3000)
        var inside = 0.0
        var outside = 0.0
        var reverse = 0.0
        var extras = 0.0
        for row in rows {
            let lon0 = Double(row[0])!
            let (lat, lon) = GeoConvertVectors.position(row[1])
            let exact = row[2].split(separator: " ").map { Double($0)! }
            let p = TransverseMercator.utm.forward(centralMeridian: lon0, latitude: lat, longitude: lon)
            let error = Swift.max(abs(p.x - exact[0]), abs(p.y - exact[1]))
            if abs(AngleMath.difference(lon0, lon)) <= 3.5 {
                inside = Swift.max(inside, error)
            } else {
                outside = Swift.max(outside, error)
            }
            extras = Swift.max(extras, Swift.max(abs(p.convergence - exact[2]), abs(p.scale - exact[3]) * 1e3))
            let back = TransverseMercator.utm.reverse(centralMeridian: lon0, x: exact[0], y: exact[1])
            reverse = Swift.max(
                reverse,
                Swift.max(
                    abs(back.latitude - lat),
                    abs(AngleMath.difference(lon, back.longitude))))
        }
        #expect(inside < 1e-8, "within a zone: \(inside) m")
        #expect(outside < 2e-8, "up to 15° out: \(outside) m")
        #expect(reverse < 1e-9, "reverse: \(reverse)°")
        #expect(extras < 1e-9, "convergence / scale: \(extras)")
    }

    @Test func forwardAndReverseAreInversesFarOutside() {
        // Zone lines are drawn across a whole zone and beyond: the series stays invertible.
        var worst = 0.0
        for lat in stride(from: -84.0, through: 84, by: 7) {
            for dlon in stride(from: -30.0, through: 30, by: 2.5) {
                let p = TransverseMercator.utm.forward(centralMeridian: 9, latitude: lat, longitude: 9 + dlon)
                let q = TransverseMercator.utm.reverse(centralMeridian: 9, x: p.x, y: p.y)
                worst = Swift.max(worst, Swift.max(abs(q.latitude - lat), abs(q.longitude - (9 + dlon))))
            }
        }
        #expect(worst < 1e-11)
        // The equator maps to y = 0 and the central meridian to x = 0; k is 0.9996 there.
        let origin = TransverseMercator.utm.forward(centralMeridian: 9, latitude: 0, longitude: 9)
        #expect(origin.x == 0 && origin.y == 0 && abs(origin.scale - 0.9996) < 1e-15)
    }

    @Test func upsPoleAndRoundTrip() {
        let pole = PolarStereographic.ups.forward(north: true, latitude: 90, longitude: 123)
        #expect(pole.x == 0 && abs(pole.y) == 0 && pole.scale == 0.994)
        var worst = 0.0
        for lat in stride(from: 60.0, through: 89.9, by: 1.3) {
            for lon in stride(from: -180.0, through: 180, by: 15) {
                for north in [true, false] {
                    let phi = north ? lat : -lat
                    let p = PolarStereographic.ups.forward(north: north, latitude: phi, longitude: lon)
                    let q = PolarStereographic.ups.reverse(north: north, x: p.x, y: p.y)
                    worst = Swift.max(
                        worst, Swift.max(abs(q.latitude - phi), abs(AngleMath.difference(lon, q.longitude))))
                }
            }
        }
        #expect(worst < 1e-11)
    }

    @Test func webMercator() {
        let a = 6_378_137.0
        #expect(WebMercator.forward(latitude: 0, longitude: 0) == PlanePoint(x: 0, y: 0))
        // At the clamp latitude the world is square: y equals x at 180°, π·a.
        let corner = WebMercator.forward(latitude: 90, longitude: 180)
        #expect(abs(corner.x - Double.pi * a) < 1e-6 && abs(corner.y - Double.pi * a) < 1e-6)
        #expect(WebMercator.forward(latitude: -89, longitude: 0).y == -corner.y)
        // a·ln(tan(45° + φ/2)) for φ = 45°, the textbook form, evaluated independently.
        let y45 = a * log(tan(Double.pi / 4 + Double.pi / 8))
        #expect(abs(WebMercator.forward(latitude: 45, longitude: 0).y - y45) < 1e-8)
        #expect(abs(WebMercator.forward(latitude: 0, longitude: -90).x + Double.pi * a / 2) < 1e-8)
        for lat in stride(from: -85.0, through: 85, by: 5) {
            let p = WebMercator.forward(latitude: lat, longitude: lat * 2)
            let q = WebMercator.inverse(p)
            #expect(abs(q.latitude - lat) < 1e-12 && abs(q.longitude - lat * 2) < 1e-12)
        }
    }
}
