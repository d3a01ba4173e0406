import Foundation

/// A longitude/latitude rectangle in degrees (west < east; no wrapping at 180°).
public struct GeoBox: Hashable, Sendable {
    public var south: Double
    public var north: Double
    public var west: Double
    public var east: Double

    public init(south: Double, north: Double, west: Double, east: Double) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    /// A box as users give it (W,S,E,N), checked: every value a number, within
    /// -180,-90,180,90, and W < E, S < N. Every command's bbox goes through this one check.
    public init(checkingWest west: Double, south: Double, east: Double, north: Double) throws(GeodesyError) {
        guard GeoBox.problem(west: west, south: south, east: east, north: north) == nil else {
            throw .invalidBBox(west: west, south: south, east: east, north: north)
        }
        self.init(south: south, north: north, west: west, east: east)
    }

    /// What keeps W,S,E,N from being a box.
    public enum Problem: Sendable, Equatable {
        case notANumber
        case outsideWorld
        case empty

        /// The problem said after the box (`the bbox 10,0,5,5 is empty (...)`).
        public var text: String {
            switch self {
            case .notANumber: return "has a value that is not a number"
            case .outsideWorld: return "is outside -180,-90,180,90"
            case .empty: return "is empty (it must be W,S,E,N with W < E and S < N)"
            }
        }
    }

    /// What keeps W,S,E,N from being a box; nil for a box.
    public static func problem(west: Double, south: Double, east: Double, north: Double) -> Problem? {
        if ![west, south, east, north].allSatisfy(\.isFinite) { return .notANumber }
        if west < -180 || east > 180 || south < -90 || north > 90 { return .outsideWorld }
        if !(west < east && south < north) { return .empty }
        return nil
    }

    /// The box as a rectangle of the longitude/latitude plane: x longitude, y latitude.
    public var rect: Rect { Rect(minX: west, minY: south, maxX: east, maxY: north) }

    /// The box a rectangle of the longitude/latitude plane covers.
    public init(_ rect: Rect) {
        self.init(south: rect.minY, north: rect.maxY, west: rect.minX, east: rect.maxX)
    }

    // Rectangle arithmetic is Rect's; a GeoBox only names the edges in degrees.
    public var isEmpty: Bool { rect.isEmpty }

    public func intersection(_ o: GeoBox) -> GeoBox { GeoBox(rect.intersection(o.rect)) }

    /// Whether the boxes share a point (edges touching count); never for an empty box.
    public func intersects(_ o: GeoBox) -> Bool { !intersection(o).isEmpty }

    /// The box grown by about `metres` on every side (more in longitude towards the poles).
    public func expanded(byMetres metres: Double) -> GeoBox {
        let dlat = metres / 100_000
        let widest = Swift.min(89.0, Swift.max(Swift.abs(south), Swift.abs(north)) + dlat)
        let dlon = Swift.min(360, dlat / cos(widest * .pi / 180))
        return GeoBox(
            south: Swift.max(-90, south - dlat), north: Swift.min(90, north + dlat),
            west: Swift.max(-180, west - dlon), east: Swift.min(180, east + dlon))
    }
}
