import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// The grid's cheaper inverse transverse Mercator and Newton step give the bits of the full
/// ones: every grid vertex comes from them, and tiles must not change by a byte.
@Suite struct ReversePositionTests {
    /// Points over and far beyond a zone (x to ±2,000 km, y pole to pole), the central
    /// meridian and the equator exactly, and both hemispheres and sides.
    @Test func positionIsTheFullReversesLatitudeAndLongitude() {
        var random = Xorshift(state: 19)
        var points: [(Double, Double, Double)] = [(0, 0, 0), (0, 0, 9), (0, 5_000_000, -75), (-1, -1, 177)]
        for _ in 0..<200_000 {
            let x = Double.random(in: -2_000_000...2_000_000, using: &random)
            let y = Double.random(in: -10_001_000...10_001_000, using: &random)
            let centre = [0, -75, 177, -3][Int.random(in: 0..<4, using: &random)]
            points.append((x, y, Double(centre)))
        }
        for tm in [TransverseMercator.utm, TransverseMercator(ellipsoid: .wgs84, scaleFactor: 1)] {
            var differing = 0
            for (x, y, centre) in points {
                let full = tm.reverse(centralMeridian: centre, x: x, y: y)
                let position = tm.reversePosition(centralMeridian: centre, x: x, y: y)
                if full.latitude.bitPattern != position.latitude.bitPattern
                    || full.longitude.bitPattern != position.longitude.bitPattern
                {
                    differing += 1
                }
            }
            #expect(differing == 0)
        }
    }

    /// `tauf` with its Newton step's hypot(1, tau) taken from `taupf`, against the step as it
    /// was written before (hypot worked out twice), over latitudes pole to pole.
    @Test func newtonStepKeepsItsBits() {
        func taufAsBefore(_ taup: Double, _ es: Double) -> Double {
            let tol = Double.ulpOfOne.squareRoot() / 10
            let taumax = 2 / Double.ulpOfOne.squareRoot()
            let e2m = 1 - es * es
            var tau = Swift.abs(taup) > 70 ? taup * Foundation.exp(AngleMath.eatanhe(1, es)) : taup / e2m
            let stol = tol * Swift.max(1, Swift.abs(taup))
            guard Swift.abs(tau) < taumax else { return tau }
            for _ in 0..<5 {
                let taupa = AngleMath.taupf(tau, es)
                let dtau =
                    (taup - taupa) * (1 + e2m * (tau * tau))
                    / (e2m * Foundation.hypot(1, tau) * Foundation.hypot(1, taupa))
                tau += dtau
                if !(Swift.abs(dtau) >= stol) { break }
            }
            return tau
        }
        var random = Xorshift(state: 7)
        let es = Ellipsoid.wgs84.eccentricity
        var differing = 0
        var taups: [Double] = [0, -0, 1, -1, 69.9, 70.1, 1e9, -1e9, .infinity, -.infinity]
        for _ in 0..<200_000 {
            taups.append(Foundation.tan(Double.random(in: -89.9999...89.9999, using: &random) * .pi / 180))
        }
        for taup in taups {
            for e in [es, -es, 0.0] where AngleMath.tauf(taup, e).bitPattern != taufAsBefore(taup, e).bitPattern {
                differing += 1
            }
        }
        #expect(differing == 0)
    }
}
