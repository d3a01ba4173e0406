import MapModel

/// Turns geometry (projected metres) into Cairo paths in a view's pixels.
///
/// Two things happen on the way, both decided in global pixels so that every view at the
/// same resolution makes the same choices (tiles must not depend on their metatile):
/// - vertices closer than a quarter pixel to the last one kept are skipped (at small scales
///   most vertices of a detailed coastline fall on the same pixel);
/// - geometry reaching far outside the view is clipped to a large rectangle around it,
///   because Cairo stores coordinates in 24.8 fixed point and cannot take values beyond
///   about ±8 million pixels (a country at zoom 18). The rectangle is far enough out that
///   its edges, and the extra vertices clipping makes, never show.
struct PathBuilder {
    let view: View
    /// Geometry whose pixel bounds stay inside ±safeLimit is drawn without clipping.
    static let safeLimit = 1_000_000.0
    /// Clipping rectangle margin around the view, in pixels.
    static let clipMargin = 100_000.0
    static let minStep = 0.25

    /// Whether a geometry's bounds, in this view's pixels, stay where Cairo is exact. (In
    /// another plane the corners only approximate the bounds; the limit has room for that.)
    func needsClipping(_ bounds: Rect) -> Bool {
        let a = view.pixel(bounds.minX, bounds.maxY), b = view.pixel(bounds.maxX, bounds.minY)
        let c = view.pixel(bounds.minX, bounds.minY), d = view.pixel(bounds.maxX, bounds.maxY)
        let low = min(a.x, a.y, b.x, b.y, c.x, c.y, d.x, d.y), high = max(a.x, a.y, b.x, b.y, c.x, c.y, d.x, d.y)
        return low < -PathBuilder.safeLimit || high > PathBuilder.safeLimit
    }

    var clipRect: Rect {
        Rect(minX: -PathBuilder.clipMargin, minY: -PathBuilder.clipMargin,
             maxX: Double(view.width) + PathBuilder.clipMargin, maxY: Double(view.height) + PathBuilder.clipMargin)
    }

    /// The vertices of one part in view pixels, thinned (first and last always kept).
    func pixels(_ geometry: Geometry, part: Int) -> [(x: Double, y: Double)] {
        let range = geometry.partRange(part)
        var out: [(x: Double, y: Double)] = []
        out.reserveCapacity(range.count)
        var lastX = Double.nan, lastY = Double.nan
        for v in range {
            let (gx, gy) = view.globalPixel(geometry.x(v), geometry.y(v))
            if v != range.upperBound - 1, abs(gx - lastX) < PathBuilder.minStep, abs(gy - lastY) < PathBuilder.minStep { continue }
            lastX = gx
            lastY = gy
            out.append((gx - view.originX, gy - view.originY))
        }
        return out
    }

    /// Adds every ring of a polygon geometry to the current path.
    func addRings(_ geometry: Geometry, to context: CairoContext) {
        let clip = needsClipping(geometry.bounds)
        for part in 0..<geometry.partCount {
            var ring = pixels(geometry, part: part)
            if clip { ring = Clipping.clipRing(ring, to: clipRect) }
            guard let first = ring.first, ring.count >= 3 else { continue }
            context.moveTo(first.x, first.y)
            for p in ring.dropFirst() { context.lineTo(p.x, p.y) }
            context.closePath()
        }
    }

    /// The pieces of each line part to stroke, each with the distance along the original
    /// part at which it starts (the dash offset that keeps dashes continuous across clips).
    func linePieces(_ geometry: Geometry) -> [(points: [(x: Double, y: Double)], startDistance: Double)] {
        let clip = needsClipping(geometry.bounds)
        var pieces: [(points: [(x: Double, y: Double)], startDistance: Double)] = []
        for part in 0..<geometry.partCount {
            let line = pixels(geometry, part: part)
            guard line.count >= 2 else { continue }
            if clip {
                pieces += Clipping.clipLine(line, to: clipRect)
            } else {
                pieces.append((line, 0))
            }
        }
        return pieces
    }

    /// Adds the rings of polygons as closed lines (for outlines).
    func ringPieces(_ geometry: Geometry) -> [(points: [(x: Double, y: Double)], startDistance: Double, closed: Bool)] {
        let clip = needsClipping(geometry.bounds)
        var pieces: [(points: [(x: Double, y: Double)], startDistance: Double, closed: Bool)] = []
        for part in 0..<geometry.partCount {
            var ring = pixels(geometry, part: part)
            guard ring.count >= 3 else { continue }
            if clip {
                ring.append(ring[0])
                pieces += Clipping.clipLine(ring, to: clipRect).map { ($0.points, $0.startDistance, false) }
            } else {
                pieces.append((ring, 0, true))
            }
        }
        return pieces
    }
}
