import Geodesy

/// Turns a curve given by a parameter (a northing along an easting line, a latitude along a
/// meridian) into a polyline that stays within `tolerance` pixels of the true curve.
///
/// Each span is split in two until the curve's points at a quarter, half and three quarters
/// of it lie within the tolerance of the chord (the middle alone, when it is very close). The split points depend only on the span's
/// ends and the projection, so a chunk gets the same vertices in every view.
struct CurveDensifier {
    /// Pixels. Checked at three points per span; 0.2 keeps the true deviation under 0.25.
    var tolerance = 0.2
    var maxDepth = 28

    /// Appends the vertices after `start` up to and including the one at `t1`.
    func densify(from t0: Double, _ start: GridVertex, to t1: Double, _ end: GridVertex,
                 into out: inout [GridVertex], _ evaluate: (Double) -> GridVertex) {
        let tm = (t0 + t1) / 2
        split(t0, start, tm, evaluate(tm), t1, end, depth: 0, into: &out, evaluate)
    }

    private func split(_ t0: Double, _ a: GridVertex, _ tm: Double, _ m: GridVertex, _ t1: Double, _ b: GridVertex,
                       depth: Int, into out: inout [GridVertex], _ evaluate: (Double) -> GridVertex) {
        let dm = distance(m.point, a.point, b.point)
        // Grid lines do not change the sense of their curvature within a span, so an arc whose
        // middle is well within the tolerance is within it all along (its deviation peaks near
        // the middle); otherwise the quarter points are checked too.
        if depth >= maxDepth || dm <= tolerance / 4 {
            out.append(b)
            return
        }
        let tq1 = (t0 + tm) / 2, tq3 = (tm + t1) / 2
        let q1 = evaluate(tq1), q3 = evaluate(tq3)
        if dm <= tolerance && distance(q1.point, a.point, b.point) <= tolerance && distance(q3.point, a.point, b.point) <= tolerance {
            out.append(b)
            return
        }
        split(t0, a, tq1, q1, tm, m, depth: depth + 1, into: &out, evaluate)
        split(tm, m, tq3, q3, t1, b, depth: depth + 1, into: &out, evaluate)
    }

    /// Distance from p to the segment a-b.
    @inline(__always)
    func distance(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0
        t = Swift.max(0, Swift.min(1, t))
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        let d = (ex * ex + ey * ey).squareRoot()
        return d.isNaN ? .infinity : d
    }
}

/// Where a monotone function crosses a value, by the Illinois variant of regula falsi:
/// bracketing like bisection, but converging in a handful of steps on smooth functions.
/// Deterministic: the same inputs give the same bits, which keeps line ends global.
enum MonotoneRoot {
    /// The t in [a, b] where f(t) = 0, given fa = f(a) and fb = f(b) of opposite signs.
    /// Stops when |f| ≤ `ftol` or the bracket is narrower than `ttol`.
    static func find(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, ttol: Double, ftol: Double,
                     _ f: (Double) -> Double) -> Double {
        if fa == 0 { return a }
        if fb == 0 { return b }
        var a = a, b = b, fa = fa, fb = fb
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
    static func find(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, hint: ClosedRange<Double>, ttol: Double, ftol: Double,
                     _ f: (Double) -> Double) -> Double {
        guard hint.lowerBound > Swift.min(a, b), hint.upperBound < Swift.max(a, b), fa != 0, fb != 0 else {
            return find(a, fa, b, fb, ttol: ttol, ftol: ftol, f)
        }
        let (lo, flo, hi, fhi) = a < b ? (a, fa, b, fb) : (b, fb, a, fa)
        let h0 = hint.lowerBound, h1 = hint.upperBound
        let f0 = f(h0), f1 = f(h1)
        if (f0 > 0) != (f1 > 0) { return find(h0, f0, h1, f1, ttol: ttol, ftol: ftol, f) }
        if (flo > 0) != (f0 > 0) { return find(lo, flo, h0, f0, ttol: ttol, ftol: ftol, f) }
        return find(h1, f1, hi, fhi, ttol: ttol, ftol: ftol, f)
    }

    /// The part of [a, b] where lower ≤ f(t) ≤ upper, for a monotone f; nil when empty.
    /// `fa` and `fb` are f(a) and f(b).
    static func clip(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, lower: Double, upper: Double,
                     ttol: Double, ftol: Double, hints: ((Double) -> ClosedRange<Double>?)? = nil,
                     _ f: (Double) -> Double) -> ClosedRange<Double>? {
        func root(_ level: Double) -> Double {
            if let hint = hints?(level) {
                return find(a, fa - level, b, fb - level, hint: hint, ttol: ttol, ftol: ftol) { f($0) - level }
            }
            return find(a, fa - level, b, fb - level, ttol: ttol, ftol: ftol) { f($0) - level }
        }
        let increasing = fb >= fa
        let (lo, hi) = increasing ? (fa, fb) : (fb, fa)
        if hi < lower || lo > upper { return nil }
        var start = a, end = b
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
