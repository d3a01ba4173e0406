/// Clipping of plane polygons and polylines to an axis-aligned rectangle: the renderer cuts
/// geometry to what can show, the grids cut cells to a view.
public enum PlaneClipping {
    /// Sutherland–Hodgman: clips a closed ring to a rectangle, one edge at a time. Parts of
    /// the ring outside become runs along the rectangle's edges, which lie far off the image.
    public static func clipRing(_ ring: [PlanePoint], to r: Rect) -> [PlanePoint] {
        var points = ring
        for edge in 0..<4 {
            guard let last = points.last else { return [] }
            var output: [PlanePoint] = []
            output.reserveCapacity(points.count + 4)
            var previous = last
            for current in points {
                let currentIn = inside(current, edge, r)
                let previousIn = inside(previous, edge, r)
                if currentIn {
                    if !previousIn { output.append(intersection(previous, current, edge, r)) }
                    output.append(current)
                } else if previousIn {
                    output.append(intersection(previous, current, edge, r))
                }
                previous = current
            }
            points = output
        }
        return points
    }

    private static func inside(_ p: PlanePoint, _ edge: Int, _ r: Rect) -> Bool {
        switch edge {
        case 0: return p.x >= r.minX
        case 1: return p.x <= r.maxX
        case 2: return p.y >= r.minY
        default: return p.y <= r.maxY
        }
    }

    private static func intersection(_ a: PlanePoint, _ b: PlanePoint, _ edge: Int, _ r: Rect) -> PlanePoint {
        switch edge {
        case 0, 1:
            let x = edge == 0 ? r.minX : r.maxX
            return PlanePoint(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
        default:
            let y = edge == 2 ? r.minY : r.maxY
            return PlanePoint(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
        }
    }

    /// Liang–Barsky on each segment: the runs of a polyline inside the rectangle, each with
    /// its starting distance along the original line.
    public static func clipLine(_ line: [PlanePoint], to r: Rect) -> [(points: [PlanePoint], startDistance: Double)] {
        var pieces: [(points: [PlanePoint], startDistance: Double)] = []
        var current: [PlanePoint] = []
        var currentStart = 0.0
        var distance = 0.0
        for i in 0..<(line.count - 1) {
            let a = line[i]
            let b = line[i + 1]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            defer { distance += length }
            var t0 = 0.0
            var t1 = 1.0
            var visible = true
            for (p, q) in [(-dx, a.x - r.minX), (dx, r.maxX - a.x), (-dy, a.y - r.minY), (dy, r.maxY - a.y)] {
                if p == 0 {
                    if q < 0 {
                        visible = false
                        break
                    }
                } else {
                    let t = q / p
                    if p < 0 {
                        if t > t1 {
                            visible = false
                            break
                        }
                        t0 = max(t0, t)
                    } else {
                        if t < t0 {
                            visible = false
                            break
                        }
                        t1 = min(t1, t)
                    }
                }
            }
            guard visible else {
                if current.count >= 2 { pieces.append((current, currentStart)) }
                current = []
                continue
            }
            let start = PlanePoint(x: a.x + dx * t0, y: a.y + dy * t0)
            let end = PlanePoint(x: a.x + dx * t1, y: a.y + dy * t1)
            if current.isEmpty || t0 > 0 {
                if current.count >= 2 { pieces.append((current, currentStart)) }
                current = [start]
                currentStart = distance + length * t0
            }
            current.append(end)
            if t1 < 1 {
                pieces.append((current, currentStart))
                current = []
            }
        }
        if current.count >= 2 { pieces.append((current, currentStart)) }
        return pieces
    }
}
