import Foundation
import Geodesy
import MapModel

/// A longitude/latitude box (degrees, W,S,E,N), clipped to the latitudes Web Mercator shows.
public struct GeoBounds: Sendable, Equatable, CustomStringConvertible {
    public let west: Double
    public let south: Double
    public let east: Double
    public let north: Double

    /// The latitude where the Web Mercator square ends: atan(sinh(pi)), about 85.0511 degrees.
    public static let mercatorLimit = atan(sinh(Double.pi)) * 180 / Double.pi

    /// The whole Web Mercator square.
    public static let world = GeoBounds(uncheckedWest: -180, south: -mercatorLimit, east: 180, north: mercatorLimit)

    private init(uncheckedWest west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Validates the box and clips its latitudes to the Web Mercator range.
    public init(west: Double, south: Double, east: Double, north: Double) throws(TilesError) {
        func refuse(_ problem: TilesError.BoundsProblem) -> TilesError {
            .invalidBounds(west: west, south: south, east: east, north: north, problem: problem)
        }
        switch GeoBox.problem(west: west, south: south, east: east, north: north) {
        case .notANumber: throw refuse(.notANumber)
        case .outsideWorld: throw refuse(.outsideWorld)
        case .empty: throw refuse(.empty)
        case nil: break
        }
        let limit = GeoBounds.mercatorLimit
        guard north > -limit, south < limit else { throw refuse(.beyondMercator(limit: limit)) }
        self.init(uncheckedWest: west, south: Swift.max(south, -limit), east: east, north: Swift.min(north, limit))
    }

    /// The tiles at zoom `z` that the box touches (a tile that only shares an edge with the
    /// box is left out, unless the box is thinner than a tile).
    public func tileRange(zoom z: Int) -> TileRange {
        let n = Double(1 << z)
        let last = (1 << z) - 1
        func column(_ longitude: Double) -> Double { (longitude + 180) / 360 * n }
        func row(_ latitude: Double) -> Double {
            (WebMercator.halfWorld - WebMercator.y(latitude: latitude)) / (2 * WebMercator.halfWorld) * n
        }
        let minX = Swift.min(last, Swift.max(0, Int(column(west).rounded(.down))))
        let maxX = Swift.min(last, Swift.max(minX, Int(column(east).rounded(.up)) - 1))
        let minY = Swift.min(last, Swift.max(0, Int(row(north).rounded(.down))))
        let maxY = Swift.min(last, Swift.max(minY, Int(row(south).rounded(.up)) - 1))
        return TileRange(z: z, minX: minX, maxX: maxX, minY: minY, maxY: maxY)
    }

    /// The MBTiles `bounds` text: W,S,E,N with 6 decimals.
    public var metadataText: String { Self.text(west, south, east, north) }

    public var description: String { metadataText }

    /// `W,S,E,N` as `metadataText` writes it, for any four values (messages about bad ones).
    public static func text(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> String {
        [west, south, east, north].map(format).joined(separator: ",")
    }

    /// Degrees with at most 6 decimals and no trailing zeros.
    public static func format(_ value: Double) -> String { DecimalFormat.trimmed(value, decimals: 6) }
}
