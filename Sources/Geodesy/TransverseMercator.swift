import Foundation

/// The transverse Mercator projection by Krüger's series in the third flattening n,
/// carried to 6th order as in Karney (2011), "Transverse Mercator with an accuracy of a few
/// nanometers", J. Geodesy 85:475–485: the error is about 5 nm within 3,900 km of the
/// central meridian. Measured against the exact projection (GeographicLib's
/// TransverseMercatorProj, elliptic functions) it stays within 7 nm up to 15° from the
/// central meridian, so a zone's lines may be drawn across the whole zone and far beyond
/// (a zone edge is only 3° out). It is not meant for points near 90° from the central
/// meridian, where the projection itself has its singularities.
///
/// Forward and reverse do no String or Array work and allocate nothing.
public struct TransverseMercator: Sendable {
    public let ellipsoid: Ellipsoid
    /// Scale factor on the central meridian (0.9996 for UTM).
    public let scaleFactor: Double

    // Derived constants. The series coefficients are stored one per property (not in an
    // array) so that the hot loops index nothing.
    private let e2, e2m, es, c: Double
    private let b1, a1: Double  // rectifying radius over a, and times a
    private let alp1, alp2, alp3, alp4, alp5, alp6: Double
    private let bet1, bet2, bet3, bet4, bet5, bet6: Double

    /// UTM's projection: WGS84 with k0 = 0.9996.
    public static let utm = TransverseMercator(ellipsoid: .wgs84, scaleFactor: WGS84.utmScaleFactor)

    public init(ellipsoid: Ellipsoid, scaleFactor: Double) {
        self.ellipsoid = ellipsoid
        self.scaleFactor = scaleFactor
        e2 = ellipsoid.eccentricitySquared
        e2m = 1 - e2
        es = ellipsoid.eccentricity
        c = ellipsoid.polarConformalFactor
        let n = ellipsoid.thirdFlattening
        // A/a = (1 + n²/4 + n⁴/64 + n⁶/256) / (1 + n)
        b1 = AngleMath.polyval([1, 4, 64, 256], n * n) / (256 * (1 + n))
        a1 = b1 * ellipsoid.equatorialRadius
        // Krüger's α_j (forward) and β_j (reverse): α_j / n^j as polynomials in n with
        // integer coefficients over a common denominator (Karney 2011, eqs. 35 and 36).
        func coefficient(_ numerators: [Double], _ denominator: Double, power: Int) -> Double {
            var d = 1.0
            for _ in 0..<power { d *= n }
            return d * AngleMath.polyval(numerators, n) / denominator
        }
        alp1 = coefficient([31564, -66675, 34440, 47250, -100800, 75600], 151200, power: 1)
        alp2 = coefficient([-1983433, 863232, 748608, -1161216, 524160], 1935360, power: 2)
        alp3 = coefficient([670412, 406647, -533952, 184464], 725760, power: 3)
        alp4 = coefficient([6601661, -7732800, 2230245], 7257600, power: 4)
        alp5 = coefficient([-13675556, 3438171], 7983360, power: 5)
        alp6 = coefficient([212378941], 319334400, power: 6)
        bet1 = coefficient([384796, -382725, -6720, 932400, -1612800, 1209600], 2419200, power: 1)
        bet2 = coefficient([-1118711, 1695744, -1174656, 258048, 80640], 3870720, power: 2)
        bet3 = coefficient([22276, -16929, -15984, 12852], 362880, power: 3)
        bet4 = coefficient([-830251, -158400, 197865], 7257600, power: 4)
        bet5 = coefficient([-435388, 453717], 15966720, power: 5)
        bet6 = coefficient([20648693], 638668800, power: 6)
    }

    /// Projects a position with the given central meridian (degrees). x is east of the
    /// central meridian and y north of the equator, both in metres with no false origin.
    /// Longitudes more than 90° from the central meridian map to the far side (y > πa/2).
    public func forward(centralMeridian: Double, latitude: Double, longitude: Double) -> ProjectedPoint {
        let lat = Swift.abs(latitude) > 90 ? Double.nan : latitude
        var lon = AngleMath.difference(centralMeridian, longitude)
        // Work in the first quadrant and restore the signs at the end (exact symmetry).
        var latSign: Double = lat.sign == .minus ? -1 : 1
        let lonSign: Double = lon.sign == .minus ? -1 : 1
        lon *= lonSign
        let phi = lat * latSign
        let backside = lon > 90
        if backside {
            if phi == 0 { latSign = -1 }
            lon = 180 - lon
        }
        let (sphi, cphi) = AngleMath.sincosd(phi)
        let (slam, clam) = AngleMath.sincosd(lon)

        // Gauss–Schreiber (spherical TM of the conformal sphere) coordinates ξ', η'.
        var etap: Double
        var xip: Double
        var gamma: Double
        var k: Double
        if phi != 90 {
            let tau = sphi / cphi
            let taup = AngleMath.taupf(tau, es)
            xip = Foundation.atan2(taup, clam)
            etap = Foundation.asinh(slam / Foundation.hypot(taup, clam))
            gamma = AngleMath.atan2d(slam * taup, clam * Foundation.hypot(1, taup))
            k =
                (e2m + e2 * (cphi * cphi)).squareRoot() * Foundation.hypot(1, tau)
                / Foundation.hypot(taup, clam)
        } else {
            xip = Double.pi / 2
            etap = 0
            gamma = lon
            k = c
        }

        // ζ = ζ' + Σ α_j sin 2jζ', summed by Clenshaw's recurrence in complex arithmetic,
        // together with its derivative for the convergence and scale.
        let c0 = Foundation.cos(2 * xip)
        let ch0 = Foundation.cosh(2 * etap)
        let s0 = Foundation.sin(2 * xip)
        let sh0 = Foundation.sinh(2 * etap)
        let ar = 2 * c0 * ch0
        let ai = -2 * s0 * sh0  // 2 cos 2ζ'
        var s = Clenshaw()
        s.step(ar, ai, alp6, 12 * alp6)
        s.step(ar, ai, alp5, 10 * alp5)
        s.step(ar, ai, alp4, 8 * alp4)
        s.step(ar, ai, alp3, 6 * alp3)
        s.step(ar, ai, alp2, 4 * alp2)
        s.step(ar, ai, alp1, 2 * alp1)
        let (xi, eta, zr, zi) = s.finish(ar, ai, s0 * ch0, c0 * sh0, xip, etap)

        gamma -= AngleMath.atan2d(zi, zr)
        k *= b1 * Foundation.hypot(zr, zi)
        let scaleA = a1 * scaleFactor
        let y = scaleA * (backside ? Double.pi - xi : xi) * latSign
        let x = scaleA * eta * lonSign
        if backside { gamma = 180 - gamma }
        gamma *= latSign * lonSign
        return ProjectedPoint(
            x: x, y: y, convergence: AngleMath.normalize(gamma),
            scale: k * scaleFactor)
    }

    /// The inverse of `forward`: x, y in metres (no false origin) to latitude and longitude.
    public func reverse(centralMeridian: Double, x: Double, y: Double) -> UnprojectedPoint {
        reverse(centralMeridian: centralMeridian, x: x, y: y, convergenceAndScale: true)
    }

    /// `reverse`'s latitude and longitude alone, the same bits: the grid's lines need no
    /// convergence or scale, whose two arc tangents, two hypots and hyperbolic tangent were
    /// about a fifth of each evaluation (callgrind of the New York MGRS pyramid).
    public func reversePosition(centralMeridian: Double, x: Double, y: Double) -> (
        latitude: Double, longitude: Double
    ) {
        let r = reverse(centralMeridian: centralMeridian, x: x, y: y, convergenceAndScale: false)
        return (r.latitude, r.longitude)
    }

    /// `reverse`, with the convergence and scale left at 0 unless asked for (a constant in
    /// both callers, so each gets its own code). Latitude and longitude do not depend on them.
    @inline(__always)
    private func reverse(centralMeridian: Double, x: Double, y: Double, convergenceAndScale: Bool)
        -> UnprojectedPoint
    {
        var xi = y / (a1 * scaleFactor)
        var eta = x / (a1 * scaleFactor)
        let xiSign: Double = xi.sign == .minus ? -1 : 1
        let etaSign: Double = eta.sign == .minus ? -1 : 1
        xi *= xiSign
        eta *= etaSign
        let backside = xi > Double.pi / 2
        if backside { xi = Double.pi - xi }

        // ζ' = ζ - Σ β_j sin 2jζ', Clenshaw as in `forward`.
        let c0 = Foundation.cos(2 * xi)
        let ch0 = Foundation.cosh(2 * eta)
        let s0 = Foundation.sin(2 * xi)
        let sh0 = Foundation.sinh(2 * eta)
        let ar = 2 * c0 * ch0
        let ai = -2 * s0 * sh0
        var s = Clenshaw()
        s.step(ar, ai, -bet6, -(12 * bet6))
        s.step(ar, ai, -bet5, -(10 * bet5))
        s.step(ar, ai, -bet4, -(8 * bet4))
        s.step(ar, ai, -bet3, -(6 * bet3))
        s.step(ar, ai, -bet2, -(4 * bet2))
        s.step(ar, ai, -bet1, -(2 * bet1))
        let (xip, etap, zr, zi) = s.finish(ar, ai, s0 * ch0, c0 * sh0, xi, eta)

        var gamma = convergenceAndScale ? AngleMath.atan2d(zi, zr) : 0
        var k = convergenceAndScale ? b1 / Foundation.hypot(zr, zi) : 0
        let sh = Foundation.sinh(etap)
        let cx = Swift.max(0, Foundation.cos(xip))  // cos(π/2) may come out negative
        let r = Foundation.hypot(sh, cx)
        var lat: Double
        var lon: Double
        if r != 0 {
            lon = AngleMath.atan2d(sh, cx)
            let sxip = Foundation.sin(xip)
            let tau = AngleMath.tauf(sxip / r, es)
            lat = AngleMath.atand(tau)
            if convergenceAndScale {
                gamma += AngleMath.atan2d(sxip * Foundation.tanh(etap), cx)
                k *= (e2m + e2 / (1 + tau * tau)).squareRoot() * Foundation.hypot(1, tau) * r
            }
        } else {
            lat = 90
            lon = 0
            k *= c
        }
        lat *= xiSign
        if backside { lon = 180 - lon }
        lon *= etaSign
        lon = AngleMath.normalize(lon + centralMeridian)
        guard convergenceAndScale else {
            return UnprojectedPoint(latitude: lat, longitude: lon, convergence: 0, scale: 0)
        }
        if backside { gamma = 180 - gamma }
        gamma *= xiSign * etaSign
        return UnprojectedPoint(
            latitude: lat, longitude: lon,
            convergence: AngleMath.normalize(gamma), scale: k * scaleFactor)
    }
}

/// Clenshaw summation of Σ c_j sin 2jζ (and of its derivative Σ d_j cos 2jζ) for complex ζ,
/// fed from the highest order down. Two terms are kept per series, alternating roles.
private struct Clenshaw {
    // y: the series; z: its derivative. "0" and "1" are b[k+1] and b[k+2].
    var y0r = 0.0, y0i = 0.0, y1r = 0.0, y1i = 0.0
    var z0r = 0.0, z0i = 0.0, z1r = 0.0, z1i = 0.0
    var odd = false

    /// b[k] = a·b[k+1] - b[k+2] + c, with a = 2 cos 2ζ given as (ar, ai).
    @inline(__always)
    mutating func step(_ ar: Double, _ ai: Double, _ c: Double, _ d: Double) {
        if !odd {
            y1r = (ar * y0r - ai * y0i) - y1r + c
            y1i = (ar * y0i + ai * y0r) - y1i
            z1r = (ar * z0r - ai * z0i) - z1r + d
            z1i = (ar * z0i + ai * z0r) - z1i
        } else {
            y0r = (ar * y1r - ai * y1i) - y0r + c
            y0i = (ar * y1i + ai * y1r) - y0i
            z0r = (ar * z1r - ai * z1i) - z0r + d
            z0i = (ar * z1i + ai * z1r) - z0i
        }
        odd.toggle()
    }

    /// After an even number of steps: ζ + sin 2ζ · b[1] and the derivative 1 - b[2] + cos 2ζ · b[1]
    /// (in the recurrence's naming, b[1] ends in y0/z0 and b[2] in y1/z1).
    @inline(__always)
    func finish(
        _ ar: Double, _ ai: Double, _ sr: Double, _ si: Double,
        _ xi: Double, _ eta: Double
    ) -> (Double, Double, Double, Double) {
        let hr = ar / 2
        let hi = ai / 2  // cos 2ζ
        let zr = (1 - z1r) + (hr * z0r - hi * z0i)
        let zi = (-z1i) + (hr * z0i + hi * z0r)
        let outR = xi + (sr * y0r - si * y0i)
        let outI = eta + (sr * y0i + si * y0r)
        return (outR, outI, zr, zi)
    }
}
