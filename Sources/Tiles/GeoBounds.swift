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
        let given = "\(Self.format(west)),\(Self.format(south)),\(Self.format(east)),\(Self.format(north))"
        if let problem = GeoBox.problem(west: west, south: south, east: east, north: north) {
            throw .invalidArgument("--bbox \(given) \(problem)")
        }
        let limit = GeoBounds.mercatorLimit
        guard north > -limit, south < limit else {
            throw .invalidArgument(
                "--bbox \(given) lies beyond latitude \(Self.format(limit)), outside the Web Mercator map")
        }
        self.init(uncheckedWest: west, south: Swift.max(south, -limit), east: east, north: Swift.min(north, limit))
    }

    /// Parses `W,S,E,N`.
    public init(parsing text: String) throws(TilesError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, values.count == 4 else {
            throw .invalidArgument("--bbox expects W,S,E,N in degrees, got '\(text)'")
        }
        try self.init(west: values[0], south: values[1], east: values[2], north: values[3])
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
    public var metadataText: String { [west, south, east, north].map(Self.format).joined(separator: ",") }

    public var description: String { metadataText }

    static func format(_ value: Double) -> String { DecimalFormat.trimmed(value, decimals: 6) }
}
