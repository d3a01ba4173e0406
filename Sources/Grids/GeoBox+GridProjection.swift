import Foundation
import Geodesy

extension GeoBox {
    /// The latitude/longitude bounds of a plane rectangle: its edges sampled and converted
    /// back, then the poles added when the rectangle holds them. Clamped to the projection's
    /// latitudes and to ±180°.
    ///
    /// On a separable plane (`GridProjection.isSeparable`) only the extreme samples are
    /// converted: the edges' 132 samples (132 inverse projections, some 3.7 M instructions
    /// over the New York MGRS pyramid's 47 generations) give the same box bit for bit.
    static func bounds<P: GridProjection>(of rect: Rect, in projection: P, sampled: Bool = false) -> GeoBox {
        var box = GeoBox(south: .infinity, north: -.infinity, west: .infinity, east: -.infinity)
        func include(_ g: GeoPosition) {
            box.south = Swift.min(box.south, g.latitude)
            box.north = Swift.max(box.north, g.latitude)
            box.west = Swift.min(box.west, g.longitude)
            box.east = Swift.max(box.east, g.longitude)
        }
        if !sampled, let extremes = rect.extremeEdgePositions(in: projection) {
            for g in extremes { include(g) }
        } else {
            for g in rect.edgePositions(in: projection) { include(g) }
        }
        let range = projection.latitudeRange
        // A pole inside the rectangle: every longitude reaches it.
        if range.upperBound >= 90, rect.contains(projection.project(latitude: 90, longitude: 0)) {
            box.north = 90
            box.west = -180
            box.east = 180
        }
        if range.lowerBound <= -90, rect.contains(projection.project(latitude: -90, longitude: 0)) {
            box.south = -90
            box.west = -180
            box.east = 180
        }
        box.south = Swift.max(box.south, range.lowerBound)
        box.north = Swift.min(box.north, range.upperBound)
        box.west = Swift.max(box.west, -180)
        box.east = Swift.min(box.east, 180)
        return box
    }
}

extension Rect {
    /// Positions along the rectangle's edges (33 on each), where the projection has one.
    func edgePositions<P: GridProjection>(in projection: P) -> [GeoPosition] {
        edgePoints(steps: 32).map(projection.unproject).filter { $0.latitude.isFinite && $0.longitude.isFinite }
    }

    /// The positions of `edgePositions` that hold its extreme latitudes and longitudes, on a
    /// separable plane; nil elsewhere, or when the rectangle is under a pixel on a side or a
    /// position is not finite (then every sample is needed).
    ///
    /// The samples' x values are `minX + width·i/32` and both edges (y likewise); latitude
    /// follows y alone and longitude x alone, each monotone, so the extremes are at the least
    /// and greatest of those values: `minX` and `maxX`, or `minX + width` where rounding puts
    /// it past `maxX`. The samples between lie a 32nd of a side (a 32nd of a pixel at least)
    /// inside, far more than the functions' rounding can undo.
    func extremeEdgePositions<P: GridProjection>(in projection: P) -> [GeoPosition]? {
        guard projection.isSeparable, width >= 1, height >= 1 else { return nil }
        let corners = [
            PlanePoint(x: minX, y: minY), PlanePoint(x: maxX, y: maxY),
            PlanePoint(x: minX + width, y: minY + height),
        ]
        let positions = corners.map(projection.unproject)
        guard positions.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite }) else { return nil }
        return positions
    }
}
