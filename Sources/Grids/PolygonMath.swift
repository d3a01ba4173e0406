import Geodesy

/// Polygon helpers for placing cell labels: clipping to a rectangle and finding a point
/// inside for the label.
enum PolygonMath {
    /// Signed area and centroid of a polygon (shoelace).
    static func areaCentroid(_ p: [PlanePoint]) -> (area: Double, x: Double, y: Double) {
        guard p.count >= 3 else { return (0, 0, 0) }
        var a = 0.0
        var cx = 0.0
        var cy = 0.0
        // Relative to the first vertex, for precision with large global pixel coordinates.
        let o = p[0]
        for i in 0..<p.count {
            let u = p[i]
            let v = p[(i + 1) % p.count]
            let ux = u.x - o.x
            let uy = u.y - o.y
            let vx = v.x - o.x
            let vy = v.y - o.y
            let cross = ux * vy - vx * uy
            a += cross
            cx += (ux + vx) * cross
            cy += (uy + vy) * cross
        }
        a /= 2
        guard a != 0 else { return (0, 0, 0) }
        return (a, o.x + cx / (6 * a), o.y + cy / (6 * a))
    }

    static func contains(_ polygon: [PlanePoint], _ p: PlanePoint) -> Bool {
        var inside = false
        var j = polygon.count - 1
        for i in 0..<polygon.count {
            let a = polygon[i]
            let b = polygon[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// A point for a label over several disjoint polygons: their joint centroid when it lies
    /// inside one of them, else the middle of the widest horizontal run through the largest
    /// one's centroid. Also the polygons' bounds. Nil when they have no area.
    static func labelPoint(_ parts: [[PlanePoint]]) -> (PlanePoint, Rect)? {
        var total = 0.0
        var sx = 0.0
        var sy = 0.0
        var bounds = Rect.empty
        var largest: (area: Double, index: Int) = (0, -1)
        for (index, part) in parts.enumerated() {
            let (a, x, y) = areaCentroid(part)
            let area = Swift.abs(a)
            guard area > 1e-9 else { continue }
            total += area
            sx += x * area
            sy += y * area
            for p in part { bounds = bounds.including(p) }
            if area > largest.area { largest = (area, index) }
        }
        guard total > 1e-6, largest.index >= 0 else { return nil }
        let centroid = PlanePoint(x: sx / total, y: sy / total)
        if parts.contains(where: { $0.count >= 3 && contains($0, centroid) }) { return (centroid, bounds) }
        let part = parts[largest.index]
        let y = areaCentroid(part).y
        var xs: [Double] = []
        var j = part.count - 1
        for i in 0..<part.count {
            let a = part[i]
            let b = part[j]
            if (a.y > y) != (b.y > y) { xs.append(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y)) }
            j = i
        }
        xs.sort()
        var best: (width: Double, x: Double)?
        var i = 0
        while i + 1 < xs.count {
            if best == nil || xs[i + 1] - xs[i] > best!.width { best = (xs[i + 1] - xs[i], (xs[i] + xs[i + 1]) / 2) }
            i += 2
        }
        guard let best else { return nil }
        return (PlanePoint(x: best.x, y: y), bounds)
    }
}

extension PolygonMath {
    /// Sutherland–Hodgman against a convex polygon given counter-clockwise in a y-up plane
    /// (the UPS plane): the part of `polygon` inside it.
    static func clip(_ polygon: [PlanePoint], toConvex clipper: [PlanePoint]) -> [PlanePoint] {
        var points = polygon
        for k in 0..<clipper.count {
            guard let last = points.last else { return [] }
            let a = clipper[k]
            let b = clipper[(k + 1) % clipper.count]
            func side(_ p: PlanePoint) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
            var output: [PlanePoint] = []
            output.reserveCapacity(points.count + 2)
            var previous = last
            var sp = side(previous)
            for current in points {
                let sc = side(current)
                if sc >= 0 {
                    if sp < 0 { output.append(cut(previous, sp, current, sc)) }
                    output.append(current)
                } else if sp >= 0 {
                    output.append(cut(previous, sp, current, sc))
                }
                previous = current
                sp = sc
            }
            points = output
        }
        return points
    }

    private static func cut(_ p: PlanePoint, _ sp: Double, _ q: PlanePoint, _ sq: Double) -> PlanePoint {
        let t = sp / (sp - sq)
        return PlanePoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
    }
}
