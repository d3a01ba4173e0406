import Foundation

/// Where a monotone function crosses a value, by the Illinois variant of regula falsi:
/// bracketing like bisection, but converging in a handful of steps on smooth functions.
/// Deterministic: the same inputs give the same bits, which keeps line ends global.
enum MonotoneRoot {
    /// The t in [a, b] where f(t) = 0, given fa = f(a) and fb = f(b) of opposite signs.
    /// Stops when |f| ≤ `ftol` or the bracket is narrower than `ttol`.
    static func find(
        _ a: Double, _ fa: Double, _ b: Double, _ fb: Double, ttol: Double, ftol: Double,
        _ f: (Double) -> Double
    ) -> Double {
        if fa == 0 { return a }
        if fb == 0 { return b }
        var a = a
        var b = b
        var fa = fa
        var fb = fb
        var side = 0
        var best = Swift.abs(fa) < Swift.abs(fb) ? a : b
        for _ in 0..<200 {
            if Swift.abs(b - a) <= ttol { break }
            var c = (a * fb - b * fa) / (fb - fa)
            if !(c > Swift.min(a, b) && c < Swift.max(a, b)) { c = (a + b) / 2 }
            let fc = f(c)
            best = c
            if Swift.abs(fc) <= ftol || fc.isNaN { break }
            if (fc > 0) == (fb > 0) {
                b = c
                fb = fc
                if side == -1 { fa /= 2 }
                side = -1
            } else {
                a = c
                fa = fc
                if side == 1 { fb /= 2 }
                side = 1
            }
        }
        return best
    }

    /// As `find`, first narrowing the bracket to `hint` (a guess at where the root lies) when
    /// the root is there, or to what lies beside it otherwise. The hint must depend only on
    /// the problem, not on the view, for results to stay the same bits everywhere.
    static func find(
        _ a: Double, _ fa: Double, _ b: Double, _ fb: Double, hint: ClosedRange<Double>, ttol: Double, ftol: Double,
        _ f: (Double) -> Double
    ) -> Double {
        guard hint.lowerBound > Swift.min(a, b), hint.upperBound < Swift.max(a, b), fa != 0, fb != 0 else {
            return find(a, fa, b, fb, ttol: ttol, ftol: ftol, f)
        }
        let (lo, flo, hi, fhi) = a < b ? (a, fa, b, fb) : (b, fb, a, fa)
        let h0 = hint.lowerBound
        let h1 = hint.upperBound
        let f0 = f(h0)
        let f1 = f(h1)
        if (f0 > 0) != (f1 > 0) { return find(h0, f0, h1, f1, ttol: ttol, ftol: ftol, f) }
        if (flo > 0) != (f0 > 0) { return find(lo, flo, h0, f0, ttol: ttol, ftol: ftol, f) }
        return find(h1, f1, hi, fhi, ttol: ttol, ftol: ftol, f)
    }

    /// The part of [a, b] where lower ≤ f(t) ≤ upper, for a monotone f; nil when empty.
    /// `fa` and `fb` are f(a) and f(b).
    static func clip(
        _ a: Double, _ fa: Double, _ b: Double, _ fb: Double, lower: Double, upper: Double,
        ttol: Double, ftol: Double, hints: ((Double) -> ClosedRange<Double>?)? = nil,
        _ f: (Double) -> Double
    ) -> ClosedRange<Double>? {
        func root(_ level: Double) -> Double {
            if let hint = hints?(level) {
                return find(a, fa - level, b, fb - level, hint: hint, ttol: ttol, ftol: ftol) { f($0) - level }
            }
            return find(a, fa - level, b, fb - level, ttol: ttol, ftol: ftol) { f($0) - level }
        }
        let increasing = fb >= fa
        let (lo, hi) = increasing ? (fa, fb) : (fb, fa)
        if hi < lower || lo > upper { return nil }
        var start = a
        var end = b
        // With f increasing, f ≥ lower from the crossing of `lower` on, f ≤ upper up to the
        // crossing of `upper`; mirrored when decreasing.
        if lo < lower {
            let t = root(lower)
            if increasing { start = t } else { end = t }
        }
        if hi > upper {
            let t = root(upper)
            if increasing { end = t } else { start = t }
        }
        return start < end ? start...end : nil
    }
}
