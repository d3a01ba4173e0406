import Foundation
import Geodesy

/// A latitude/longitude rectangle in degrees (west < east; no wrapping at 180°).
struct GeoBox: Hashable, Sendable {
    var south: Double
    var north: Double
    var west: Double
    var east: Double

    var isEmpty: Bool { !(south <= north && west <= east) }

    func intersection(_ o: GeoBox) -> GeoBox {
        GeoBox(
            south: Swift.max(south, o.south), north: Swift.min(north, o.north),
            west: Swift.max(west, o.west), east: Swift.min(east, o.east))
    }

    func intersects(_ o: GeoBox) -> Bool { !intersection(o).isEmpty }

    /// The box grown by about `metres` on every side (more in longitude towards the poles).
    func expanded(byMetres metres: Double) -> GeoBox {
        let dlat = metres / 100_000
        let widest = Swift.min(89.0, Swift.max(Swift.abs(south), Swift.abs(north)) + dlat)
        let dlon = Swift.min(360, dlat / cos(widest * .pi / 180))
        return GeoBox(
            south: Swift.max(-90, south - dlat), north: Swift.min(90, north + dlat),
            west: Swift.max(-180, west - dlon), east: Swift.min(180, east + dlon))
    }

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
        var out: [GeoPosition] = []
        out.reserveCapacity(4 * 33)
        let n = 32
        for i in 0...n {
            let f = Double(i) / Double(n)
            let x = minX + f * width
            let y = minY + f * height
            for p in [
                PlanePoint(x: x, y: minY), PlanePoint(x: x, y: maxY), PlanePoint(x: minX, y: y),
                PlanePoint(x: maxX, y: y),
            ] {
                let g = projection.unproject(p)
                if g.latitude.isFinite, g.longitude.isFinite { out.append(g) }
            }
        }
        return out
    }
}
