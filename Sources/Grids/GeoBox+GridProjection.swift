import Foundation
import Geodesy

extension GeoBox {
    /// The latitude/longitude bounds of a plane rectangle: its edges sampled and converted
    /// back, then the poles added when the rectangle holds them. Clamped to the projection's
    /// latitudes and to ±180°.
    static func bounds<P: GridProjection>(of rect: Rect, in projection: P) -> GeoBox {
        var box = GeoBox(south: .infinity, north: -.infinity, west: .infinity, east: -.infinity)
        for g in rect.edgePositions(in: projection) {
            box.south = Swift.min(box.south, g.latitude)
            box.north = Swift.max(box.north, g.latitude)
            box.west = Swift.min(box.west, g.longitude)
            box.east = Swift.max(box.east, g.longitude)
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
}
