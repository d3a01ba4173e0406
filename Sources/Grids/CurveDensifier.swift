import Geodesy

/// Turns a curve given by a parameter (a northing along an easting line, a latitude along a
/// meridian) into a polyline that stays within `tolerance` pixels of the true curve.
///
/// Each span is split in two until the curve's points at a quarter, half and three quarters
/// of it lie within the tolerance of the chord. The split points depend only on the span's
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
        let tq1 = (t0 + tm) / 2, tq3 = (tm + t1) / 2
        let q1 = evaluate(tq1), q3 = evaluate(tq3)
        let flat = distance(m.point, a.point, b.point) <= tolerance
            && distance(q1.point, a.point, b.point) <= tolerance
            && distance(q3.point, a.point, b.point) <= tolerance
        if flat || depth >= maxDepth {
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

    /// The part of [a, b] where lower ≤ f(t) ≤ upper, for a monotone f; nil when empty.
    /// `fa` and `fb` are f(a) and f(b).
    static func clip(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double, lower: Double, upper: Double,
                     ttol: Double, ftol: Double, _ f: (Double) -> Double) -> ClosedRange<Double>? {
        let increasing = fb >= fa
        let (lo, hi) = increasing ? (fa, fb) : (fb, fa)
        if hi < lower || lo > upper { return nil }
        var start = a, end = b
        // With f increasing, f ≥ lower from the crossing of `lower` on, f ≤ upper up to the
        // crossing of `upper`; mirrored when decreasing.
        if lo < lower {
            let t = find(a, fa - lower, b, fb - lower, ttol: ttol, ftol: ftol) { f($0) - lower }
            if increasing { start = t } else { end = t }
        }
        if hi > upper {
            let t = find(a, fa - upper, b, fb - upper, ttol: ttol, ftol: ftol) { f($0) - upper }
            if increasing { end = t } else { start = t }
        }
        return start < end ? start...end : nil
    }
}
