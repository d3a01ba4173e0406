import Geodesy
import MapModel

/// Where a polygon crossing the edge of the rendered area is labelled: the pole of
/// inaccessibility of its largest part inside the area, so that the label sits in the part
/// that is seen (as QGIS and Mapnik place it) instead of where the whole polygon's pole may
/// lie, beyond the edge or cut by it.
///
/// The area is the whole rendered extent (a single image, a sheet's map, a `--bbox`
/// pyramid's tiles at one zoom), never one tile or metatile: every view of a pyramid at a
/// zoom then finds the same point, and the point depends on this one feature alone.
enum VisibleLabelPoint {
    /// The label point of `feature` in `view`'s global pixels, given its whole polygon's
    /// `anchor` (Web Mercator metres, see `LabelPoint`): that anchor where the feature has no
    /// polygon, where its polygon lies inside `area` (global pixels) or where none of it does;
    /// otherwise the pole of its largest part clipped to `area`.
    static func point(of feature: Feature, anchor: PlanePoint, view: View, area: Rect) -> PlanePoint {
        let whole = view.globalPixel(anchor)
        // The geometry `LabelPoint` labels: the first polygon one.
        guard let geometry = feature.geometries.first(where: { $0.kind == .polygon && $0.vertexCount > 0 }),
            geometry.polygonCount > 0
        else { return whole }
        if view.plane == nil, area.contains(view.transform.global(geometry.bounds)) { return whole }
        let rings = (0..<geometry.partCount).map { ring in
            geometry.partRange(ring).map { view.globalPixel(PlanePoint(x: geometry.x($0), y: geometry.y($0))) }
        }
        let bounds = rings.joined().reduce(Rect.empty) { $0.including($1) }
        if area.contains(bounds) { return whole }
        guard let visible = clipped(geometry, rings, to: area) else { return whole }
        return LabelPoint.poleOfInaccessibility(visible)
    }

    /// The polygons of `geometry` (its `rings` in pixels) clipped to `area`, as a polygon
    /// geometry in pixels; nil when nothing of them is inside. A ring cut into several pieces
    /// keeps them joined by runs along the area's edge, which add no inside and no edge
    /// farther in than the area's own, so the pole of the clipped ring is still right.
    static func clipped(_ geometry: Geometry, _ rings: [[PlanePoint]], to area: Rect) -> Geometry? {
        var coordinates: [Double] = []
        var partStarts: [Int] = [0]
        var polygonStarts: [Int] = [0]
        for polygon in 0..<geometry.polygonCount {
            var kept = 0
            for ring in geometry.ringRange(ofPolygon: polygon) {
                let points = PlaneClipping.clipRing(rings[ring], to: area)
                // A polygon whose exterior is outside has nothing inside; a hole outside is no hole.
                guard points.count >= 3 else {
                    if kept == 0 { break } else { continue }
                }
                for p in points { coordinates += [p.x, p.y] }
                partStarts.append(coordinates.count / 2)
                kept += 1
            }
            if kept > 0 { polygonStarts.append(partStarts.count - 1) }
        }
        guard polygonStarts.count > 1 else { return nil }
        let visible = Geometry(
            kind: .polygon, coordinates: coordinates, partStarts: partStarts, polygonStarts: polygonStarts)
        // Only runs along the edge (a polygon wrapping round a corner outside): nothing seen.
        let seen = (0..<visible.polygonCount).contains {
            abs(LabelPoint.ringArea(visible, visible.ringRange(ofPolygon: $0).lowerBound)) >= 1
        }
        return seen ? visible : nil
    }
}
