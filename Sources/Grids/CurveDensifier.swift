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
    func densify(
        from t0: Double, _ start: GridVertex, to t1: Double, _ end: GridVertex,
        into out: inout [GridVertex], _ evaluate: (Double) -> GridVertex
    ) {
        let tm = (t0 + t1) / 2
        split(t0, start, tm, evaluate(tm), t1, end, depth: 0, into: &out, evaluate)
    }

    private func split(
        _ t0: Double, _ a: GridVertex, _ tm: Double, _ m: GridVertex, _ t1: Double, _ b: GridVertex,
        depth: Int, into out: inout [GridVertex], _ evaluate: (Double) -> GridVertex
    ) {
        let dm = distance(m.point, a.point, b.point)
        // Grid lines do not change the sense of their curvature within a span, so an arc whose
        // middle is well within the tolerance is within it all along (its deviation peaks near
        // the middle); otherwise the quarter points are checked too.
        if depth >= maxDepth || dm <= tolerance / 4 {
            out.append(b)
            return
        }
        let tq1 = (t0 + tm) / 2
        let tq3 = (tm + t1) / 2
        let q1 = evaluate(tq1)
        let q3 = evaluate(tq3)
        if dm <= tolerance && distance(q1.point, a.point, b.point) <= tolerance
            && distance(q3.point, a.point, b.point) <= tolerance
        {
            out.append(b)
            return
        }
        split(t0, a, tq1, q1, tm, m, depth: depth + 1, into: &out, evaluate)
        split(tm, m, tq3, q3, t1, b, depth: depth + 1, into: &out, evaluate)
    }

    /// Distance from p to the segment a-b.
    @inline(__always)
    func distance(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0
        t = Swift.max(0, Swift.min(1, t))
        let ex = a.x + t * dx - p.x
        let ey = a.y + t * dy - p.y
        let d = (ex * ex + ey * ey).squareRoot()
        return d.isNaN ? .infinity : d
    }
}
