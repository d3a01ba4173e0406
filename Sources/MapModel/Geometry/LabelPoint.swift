import Foundation
import Geodesy

/// Where a feature's label goes, computed once from the whole geometry (never from a piece a
/// tile clips), so that every view and every tile puts it in the same place. A polygon the
/// whole rendered area cuts is labelled in its visible part instead (Render's
/// `VisibleLabelPoint`, through `poleOfInaccessibility`).
public enum LabelPoint {
    /// Points: the first point. Lines: halfway along the longest part. Polygons: the pole of
    /// inaccessibility of the largest polygon (the interior point farthest from any edge),
    /// which stays inside concave shapes where a centroid would not.
    public static func anchor(for feature: Feature) -> PlanePoint? {
        for kind in [Geometry.Kind.polygon, .line, .point] {
            for geometry in feature.geometries where geometry.kind == kind && geometry.vertexCount > 0 {
                switch kind {
                case .point: return PlanePoint(x: geometry.x(0), y: geometry.y(0))
                case .line: return midpoint(of: geometry)
                case .polygon: return poleOfInaccessibility(geometry)
                }
            }
        }
        return nil
    }

    static func midpoint(of geometry: Geometry) -> PlanePoint {
        var best = 0
        var bestLength = -1.0
        for part in 0..<geometry.partCount {
            let length = partLength(geometry, part)
            if length > bestLength {
                best = part
                bestLength = length
            }
        }
        var remaining = bestLength / 2
        let range = geometry.partRange(best)
        for v in range.dropLast() {
            let dx = geometry.x(v + 1) - geometry.x(v)
            let dy = geometry.y(v + 1) - geometry.y(v)
            let length = (dx * dx + dy * dy).squareRoot()
            if length >= remaining, length > 0 {
                let t = remaining / length
                return PlanePoint(x: geometry.x(v) + dx * t, y: geometry.y(v) + dy * t)
            }
            remaining -= length
        }
        return PlanePoint(x: geometry.x(range.lowerBound), y: geometry.y(range.lowerBound))
    }

    static func partLength(_ geometry: Geometry, _ part: Int) -> Double {
        var total = 0.0
        for v in geometry.partRange(part).dropLast() {
            let dx = geometry.x(v + 1) - geometry.x(v)
            let dy = geometry.y(v + 1) - geometry.y(v)
            total += (dx * dx + dy * dy).squareRoot()
        }
        return total
    }

    /// Signed area of a ring (shoelace formula).
    public static func ringArea(_ geometry: Geometry, _ ring: Int) -> Double {
        let range = geometry.partRange(ring)
        var sum = 0.0
        var previous = range.upperBound - 1
        for v in range {
            sum += geometry.x(previous) * geometry.y(v) - geometry.x(v) * geometry.y(previous)
            previous = v
        }
        return sum / 2
    }

    public static func poleOfInaccessibility(_ geometry: Geometry) -> PlanePoint {
        // The polygon with the largest area (exterior minus holes).
        var bestPolygon = 0
        var bestArea = -Double.infinity
        for p in 0..<geometry.polygonCount {
            let rings = geometry.ringRange(ofPolygon: p)
            var area = abs(ringArea(geometry, rings.lowerBound))
            for hole in rings.dropFirst() { area -= abs(ringArea(geometry, hole)) }
            if area > bestArea {
                bestArea = area
                bestPolygon = p
            }
        }
        let rings = Array(geometry.ringRange(ofPolygon: bestPolygon))
        var box = Rect.empty
        for v in geometry.partRange(rings[0]) { box.include(x: geometry.x(v), y: geometry.y(v)) }
        let cellSize = min(box.width, box.height)
        if cellSize <= 0 { return PlanePoint(x: box.minX, y: box.minY) }
        let precision = max(box.width, box.height) / 1000

        // Best-first search over square cells: a cell can hold a point at most
        // (distance of its centre + half its diagonal) from the edges.
        struct Cell {
            let x, y, half, distance, potential: Double
        }
        func makeCell(_ x: Double, _ y: Double, _ half: Double) -> Cell {
            let d = signedDistance(x, y, geometry, rings)
            return Cell(x: x, y: y, half: half, distance: d, potential: d + half * 2.squareRoot())
        }
        var queue: [Cell] = []
        var h = cellSize / 2
        var x = box.minX
        while x < box.maxX {
            var y = box.minY
            while y < box.maxY {
                queue.append(makeCell(x + h, y + h, h))
                y += cellSize
            }
            x += cellSize
        }
        // Start from the centroid-ish box centre, as it is often good already.
        var best = makeCell(box.centerX, box.centerY, 0)
        while !queue.isEmpty {
            // Pop the cell with the highest potential (ties: first found, for determinism).
            var top = 0
            for i in 1..<queue.count where queue[i].potential > queue[top].potential { top = i }
            let cell = queue.remove(at: top)
            if cell.distance > best.distance { best = cell }
            if cell.potential - best.distance <= precision { continue }
            h = cell.half / 2
            queue.append(makeCell(cell.x - h, cell.y - h, h))
            queue.append(makeCell(cell.x + h, cell.y - h, h))
            queue.append(makeCell(cell.x - h, cell.y + h, h))
            queue.append(makeCell(cell.x + h, cell.y + h, h))
            if queue.count > 20_000 { break }  // pathological shapes: the best so far is good enough
        }
        return PlanePoint(x: best.x, y: best.y)
    }

    /// Distance from (x, y) to the polygon's edges: positive inside, negative outside.
    static func signedDistance(_ x: Double, _ y: Double, _ geometry: Geometry, _ rings: [Int]) -> Double {
        var inside = false
        var minSquared = Double.infinity
        for ring in rings {
            let range = geometry.partRange(ring)
            var j = range.upperBound - 1
            for i in range {
                let ax = geometry.x(i)
                let ay = geometry.y(i)
                let bx = geometry.x(j)
                let by = geometry.y(j)
                if (ay > y) != (by > y), x < (bx - ax) * (y - ay) / (by - ay) + ax { inside.toggle() }
                minSquared = min(minSquared, segmentDistanceSquared(x, y, ax, ay, bx, by))
                j = i
            }
        }
        return (inside ? 1 : -1) * minSquared.squareRoot()
    }

    static func segmentDistanceSquared(
        _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) -> Double {
        var x = ax
        var y = ay
        let dx = bx - ax
        let dy = by - ay
        if dx != 0 || dy != 0 {
            let t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = bx
                y = by
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        return (px - x) * (px - x) + (py - y) * (py - y)
    }
}
