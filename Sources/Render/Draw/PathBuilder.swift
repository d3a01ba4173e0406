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
    /// Parts already turned into pixels for this view, shared by the tiles of a block.
    var cache: PixelPaths? = nil
    static let minStep = 0.25

    /// Whether a geometry reaches beyond the region grown by the margin. (In another plane
    /// the corners only approximate the bounds; missing a clip there only costs time.)
    func needsClipping(_ bounds: Rect) -> Bool {
        let keep = region.expanded(by: margin)
        // Corner by corner, without an array of them: this is asked per geometry and tile.
        let outside = { (x: Double, y: Double) in !keep.contains(view.globalPixel(PlanePoint(x: x, y: y))) }
        return outside(bounds.minX, bounds.maxY) || outside(bounds.maxX, bounds.minY)
            || outside(bounds.minX, bounds.minY) || outside(bounds.maxX, bounds.maxY)
    }

    /// The clipping rectangle in the view's pixels: the region grown by the margin.
    var clipRect: Rect { view.transform.image(global: region).expanded(by: margin) }

    /// Every part of a geometry in view pixels, thinned: from the cache when `id` names it.
    func parts(_ geometry: Geometry, id: PixelPaths.Key?) -> [[PlanePoint]] {
        let make = { (0..<geometry.partCount).map { pixels(geometry, part: $0) } }
        guard let cache, let id else { return make() }
        return cache.parts(id, make)
    }

    /// The vertices of one part in view pixels, thinned (first and last always kept).
    func pixels(_ geometry: Geometry, part: Int) -> [PlanePoint] {
        let range = geometry.partRange(part)
        var out: [PlanePoint] = []
        out.reserveCapacity(range.count)
        var last = PlanePoint(x: .nan, y: .nan)
        // Web Mercator views (tiles) skip the plane's existential for each vertex.
        let flat = view.plane == nil
        let transform = view.transform
        geometry.coordinates.withUnsafeBufferPointer { coordinates in
            for v in range {
                let p = PlanePoint(x: coordinates[2 * v], y: coordinates[2 * v + 1])
                let g = flat ? transform.global(p) : view.globalPixel(p)
                // Outside the domain of the view's plane (the far side of an azimuthal projection).
                guard g.x.isFinite, g.y.isFinite else { continue }
                if v != range.upperBound - 1, abs(g.x - last.x) < PathBuilder.minStep,
                    abs(g.y - last.y) < PathBuilder.minStep
                {
                    continue
                }
                last = g
                out.append(transform.image(global: g))
            }
        }
        return out
    }

    /// Adds every ring of a polygon geometry to the current path.
    func addRings(_ geometry: Geometry, id: PixelPaths.Key? = nil, to context: CairoContext) {
        let clip = needsClipping(geometry.bounds)
        for var ring in parts(geometry, id: id) {
            if clip { ring = PlaneClipping.clipRing(ring, to: clipRect) }
            guard let first = ring.first, ring.count >= 3 else { continue }
            context.moveTo(first.x, first.y)
            for p in ring.dropFirst() { context.lineTo(p.x, p.y) }
            context.closePath()
        }
    }

    /// The pieces of each line part to stroke, each with the distance along the part at which
    /// it starts (the dash offset that keeps dashes continuous across clips). With `offset`,
    /// the whole part is moved sideways first (right when positive), then clipped.
    func linePieces(_ geometry: Geometry, id: PixelPaths.Key? = nil, offset: Double = 0) -> [(
        points: [PlanePoint], startDistance: Double
    )] {
        let clip = needsClipping(geometry.bounds)
        var pieces: [(points: [PlanePoint], startDistance: Double)] = []
        for var line in parts(geometry, id: id) {
            guard line.count >= 2 else { continue }
            if offset != 0 { line = LineOffset.offset(line, by: offset, closed: false) }
            if clip {
                pieces += PlaneClipping.clipLine(line, to: clipRect)
            } else {
                pieces.append((line, 0))
            }
        }
        return pieces
    }

    /// The rings of polygons as lines to stroke (closed when whole). With `inset`, each ring
    /// is moved into its polygon first (out of it when negative): exterior rings shrink,
    /// holes grow.
    func ringPieces(_ geometry: Geometry, id: PixelPaths.Key? = nil, inset: Double = 0) -> [(
        points: [PlanePoint], startDistance: Double, closed: Bool
    )] {
        let clip = needsClipping(geometry.bounds)
        let all = parts(geometry, id: id)
        var pieces: [(points: [PlanePoint], startDistance: Double, closed: Bool)] = []
        for polygon in 0..<Swift.max(geometry.polygonCount, 1) {
            let rings = geometry.polygonCount > 0 ? geometry.ringRange(ofPolygon: polygon) : 0..<geometry.partCount
            for part in rings {
                var ring = all[part]
                guard ring.count >= 3 else { continue }
                if inset != 0 {
                    // Right of the direction of travel is inside a ring of positive area
                    // (y down); a hole's inside is outside its polygon.
                    let inward = (PathBuilder.signedArea(ring) > 0) == (part == rings.lowerBound) ? 1.0 : -1.0
                    ring = LineOffset.offset(ring, by: inset * inward, closed: true)
                    guard ring.count >= 3 else { continue }
                }
                if clip {
                    ring.append(ring[0])
                    pieces += PlaneClipping.clipLine(ring, to: clipRect).map { ($0.points, $0.startDistance, false) }
                } else {
                    pieces.append((ring, 0, true))
                }
            }
        }
        return pieces
    }

    /// The shoelace area of a ring in pixels (y down): positive when it turns clockwise
    /// on the image.
    static func signedArea(_ ring: [PlanePoint]) -> Double {
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return sum / 2
    }
}
