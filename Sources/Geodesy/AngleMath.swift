import Foundation

// Angle and latitude helpers shared by the projections. They work in degrees where the
// reduction to a quadrant can be done exactly (`remainder` by 90° is exact), so that
// sin 30° is the double nearest 1/2 and cos 90° is exactly 0. Results therefore agree
// with GeographicLib to the last bit, which MGRS needs: it truncates coordinates to
// 1 µm, so a 1-ulp difference in a northing can change a digit.
enum AngleMath {
    static let degree = Double.pi / 180

    /// Sine and cosine of an angle in degrees, reduced to [-45°, 45°] exactly first.
    @inline(__always)
    static func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        let r = x.remainder(dividingBy: 90)
        // (x - r) is an exact multiple of 90; its quotient's low two bits pick the quadrant.
        let q = Int(((x - r) / 90).rounded()) & 3
        let rad = r * degree
        let s = Foundation.sin(rad)
        let c = Foundation.cos(rad)
        var sinx: Double
        var cosx: Double
        switch q {
        case 0:
            sinx = s
            cosx = c
        case 1:
            sinx = c
            cosx = -s
        case 2:
            sinx = -s
            cosx = -c
        default:
            sinx = -c
            cosx = s
        }
        cosx += 0  // turns -0 into +0
        if sinx == 0 { sinx = Double(signOf: x, magnitudeOf: sinx) }
        return (sinx, cosx)
    }

    /// atan2 in degrees, computed in the octant where atan2 is most accurate.
    @inline(__always)
    static func atan2d(_ y: Double, _ x: Double) -> Double {
        var x = x
        var y = y
        var q = 0
        if Swift.abs(y) > Swift.abs(x) {
            swap(&x, &y)
            q = 2
        }
        if x.sign == .minus {
            x = -x
            q += 1
        }
        var angle = Foundation.atan2(y, x) / degree
        switch q {
        case 1: angle = Double(signOf: y, magnitudeOf: 180) - angle
        case 2: angle = 90 - angle
        case 3: angle = -90 + angle
        default: break
        }
        return angle
    }

    @inline(__always)
    static func atand(_ x: Double) -> Double { atan2d(x, 1) }

    /// tan of an angle in degrees; ±1/ε² instead of infinity at ±90°.
    static func tand(_ x: Double) -> Double {
        let overflow = 1 / (Double.ulpOfOne * Double.ulpOfOne)
        let (s, c) = sincosd(x)
        return c != 0 ? s / c : (s < 0 ? -overflow : overflow)
    }

    /// An angle reduced to [-180°, 180°], keeping the sign of ±180°.
    @inline(__always)
    static func normalize(_ x: Double) -> Double {
        let y = x.remainder(dividingBy: 360)
        return Swift.abs(y) == 180 ? Double(signOf: x, magnitudeOf: 180) : y
    }

    /// y - x reduced to [-180°, 180°], accurately even when x and y are large.
    @inline(__always)
    static func difference(_ x: Double, _ y: Double) -> Double {
        var e = 0.0
        var d = twoSum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360), &e)
        d = twoSum(d.remainder(dividingBy: 360), e, &e)
        if d == 0 || Swift.abs(d) == 180 {
            d = Double(signOf: e == 0 ? y - x : -e, magnitudeOf: d)
        }
        return d
    }

    /// Error-free sum: returns u + v rounded and puts the rounding error in `t`.
    @inline(__always)
    static func twoSum(_ u: Double, _ v: Double, _ t: inout Double) -> Double {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        t = s != 0 ? 0 - (up + vpp) : s
        return s
    }

    /// e·atanh(e·x), the term that turns a geographic latitude into a conformal one.
    @inline(__always)
    static func eatanhe(_ x: Double, _ es: Double) -> Double {
        es > 0 ? es * Foundation.atanh(es * x) : -es * Foundation.atan(es * x)
    }

    /// tan χ (conformal latitude) from tan φ (geographic latitude).
    @inline(__always)
    static func taupf(_ tau: Double, _ es: Double) -> Double {
        taupfAndSecant(tau, es).taup
    }

    /// `taupf` and hypot(1, tau), which it works out on the way (bit for bit the same as
    /// calling hypot again): `tauf`'s Newton step needs both, and hypot is among the grid's
    /// costliest library calls.
    @inline(__always)
    static func taupfAndSecant(_ tau: Double, _ es: Double) -> (taup: Double, secant: Double) {
        guard tau.isFinite else { return (tau, Foundation.hypot(1, tau)) }
        let tau1 = Foundation.hypot(1, tau)
        let sig = Foundation.sinh(eatanhe(tau / tau1, es))
        return (Foundation.hypot(1, sig) * tau - sig * tau1, tau1)
    }

    /// tan φ from tan χ by Newton's method (two iterations at most in practice).
    static func tauf(_ taup: Double, _ es: Double) -> Double {
        let tol = Double.ulpOfOne.squareRoot() / 10
        let taumax = 2 / Double.ulpOfOne.squareRoot()
        let e2m = 1 - es * es
        // Start from tau' / (1 - e²), or near the poles from the limit of tau'/tau.
        var tau = Swift.abs(taup) > 70 ? taup * Foundation.exp(eatanhe(1, es)) : taup / e2m
        let stol = tol * Swift.max(1, Swift.abs(taup))
        guard Swift.abs(tau) < taumax else { return tau }
        for _ in 0..<5 {
            let (taupa, secant) = taupfAndSecant(tau, es)
            let dtau =
                (taup - taupa) * (1 + e2m * (tau * tau))
                / (e2m * secant * Foundation.hypot(1, taupa))
            tau += dtau
            if !(Swift.abs(dtau) >= stol) { break }
        }
        return tau
    }

    /// Horner evaluation of a polynomial whose coefficients run from the highest power down.
    static func polyval(_ coefficients: [Double], _ x: Double) -> Double {
        var y = coefficients[0]
        for c in coefficients.dropFirst() { y = y * x + c }
        return y
    }
}
