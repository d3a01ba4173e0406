import Geodesy
import MapModel

/// Turns geometry (projected metres) into Cairo paths in a view's pixels.
///
/// Two things happen on the way, both decided in global pixels from the geometry and the
/// region being drawn alone, so that a tile gets the same path whatever block of tiles it
/// is drawn in:
/// - vertices closer than a quarter pixel to the last one kept are skipped (at small scales
///   most vertices of a detailed coastline fall on the same pixel);
/// - geometry reaching beyond the region by more than `margin` is clipped to the region
///   grown by `margin`. Cairo then only works on what can show (a country crossing many
///   tiles is not tessellated whole for each), and coordinates stay within Cairo's 24.8
///   fixed point (about ±8 million pixels: a country at zoom 18 is far larger). The margin
///   exceeds the reach of the symbols, so the cut edges and the runs along the clip
///   rectangle never show.
struct PathBuilder {
    let view: View
    /// The part of the view being drawn, in global pixels.
    let region: Rect
    /// How far beyond the region geometry is kept, in pixels.
    let margin: Double
    static let minStep = 0.25

    /// Whether a geometry reaches beyond the region grown by the margin. (In another plane
    /// the corners only approximate the bounds; missing a clip there only costs time.)
    func needsClipping(_ bounds: Rect) -> Bool {
        let keep = region.expanded(by: margin)
        let corners = [
            view.globalPixel(bounds.minX, bounds.maxY), view.globalPixel(bounds.maxX, bounds.minY),
            view.globalPixel(bounds.minX, bounds.minY), view.globalPixel(bounds.maxX, bounds.maxY),
        ]
        return corners.contains { !keep.contains(x: $0.x, y: $0.y) }
    }

    /// The clipping rectangle in the view's pixels: the region grown by the margin.
    var clipRect: Rect {
        Rect(
            minX: region.minX - view.originX - margin, minY: region.minY - view.originY - margin,
            maxX: region.maxX - view.originX + margin, maxY: region.maxY - view.originY + margin)
    }

    /// The vertices of one part in view pixels, thinned (first and last always kept).
    func pixels(_ geometry: Geometry, part: Int) -> [PlanePoint] {
        let range = geometry.partRange(part)
        var out: [PlanePoint] = []
        out.reserveCapacity(range.count)
        var lastX = Double.nan
        var lastY = Double.nan
        for v in range {
            let (gx, gy) = view.globalPixel(geometry.x(v), geometry.y(v))
            if v != range.upperBound - 1, abs(gx - lastX) < PathBuilder.minStep, abs(gy - lastY) < PathBuilder.minStep {
                continue
            }
            lastX = gx
            lastY = gy
            out.append(PlanePoint(x: gx - view.originX, y: gy - view.originY))
        }
        return out
    }

    /// Adds every ring of a polygon geometry to the current path.
    func addRings(_ geometry: Geometry, to context: CairoContext) {
        let clip = needsClipping(geometry.bounds)
        for part in 0..<geometry.partCount {
            var ring = pixels(geometry, part: part)
            if clip { ring = PlaneClipping.clipRing(ring, to: clipRect) }
            guard let first = ring.first, ring.count >= 3 else { continue }
            context.moveTo(first.x, first.y)
            for p in ring.dropFirst() { context.lineTo(p.x, p.y) }
            context.closePath()
        }
    }

    /// The pieces of each line part to stroke, each with the distance along the original
    /// part at which it starts (the dash offset that keeps dashes continuous across clips).
    func linePieces(_ geometry: Geometry) -> [(points: [PlanePoint], startDistance: Double)] {
        let clip = needsClipping(geometry.bounds)
        var pieces: [(points: [PlanePoint], startDistance: Double)] = []
        for part in 0..<geometry.partCount {
            let line = pixels(geometry, part: part)
            guard line.count >= 2 else { continue }
            if clip {
                pieces += PlaneClipping.clipLine(line, to: clipRect)
            } else {
                pieces.append((line, 0))
            }
        }
        return pieces
    }

    /// Adds the rings of polygons as closed lines (for outlines).
    func ringPieces(_ geometry: Geometry) -> [(points: [PlanePoint], startDistance: Double, closed: Bool)] {
        let clip = needsClipping(geometry.bounds)
        var pieces: [(points: [PlanePoint], startDistance: Double, closed: Bool)] = []
        for part in 0..<geometry.partCount {
            var ring = pixels(geometry, part: part)
            guard ring.count >= 3 else { continue }
            if clip {
                ring.append(ring[0])
                pieces += PlaneClipping.clipLine(ring, to: clipRect).map { ($0.points, $0.startDistance, false) }
            } else {
                pieces.append((ring, 0, true))
            }
        }
        return pieces
    }
}
