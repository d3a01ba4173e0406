import Foundation

/// The zoom levels of a job, `5`, `0-6` or `3-3` on the command line.
public struct ZoomRange: Sendable, Equatable, CustomStringConvertible {
    public let min: Int
    public let max: Int

    /// The deepest zoom accepted. At zoom 24 a 512 px @2x tile is 2^-24 of a 2^34 px world:
    /// global pixel positions stay exact in a Double, and no map needs finer tiles.
    public static let deepest = 24

    public init(min: Int, max: Int) throws(TilesError) {
        guard min >= 0, max <= ZoomRange.deepest else {
            throw .invalidArgument(
                "--zoom \(min)-\(max) is out of range: zoom levels go from 0 to \(ZoomRange.deepest)")
        }
        guard min <= max else {
            throw .invalidArgument("--zoom \(min)-\(max) is empty: give the lower zoom first (\(max)-\(min))")
        }
        self.min = min
        self.max = max
    }

    /// Parses `Z` or `ZMIN-ZMAX`.
    public init(parsing text: String) throws(TilesError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let numbers = parts.compactMap { Int($0) }
        guard parts.count == 1 || parts.count == 2, numbers.count == parts.count else {
            throw .invalidArgument("--zoom expects a zoom level or a range like 0-6, got '\(text)'")
        }
        try self.init(min: numbers[0], max: numbers[numbers.count - 1])
    }

    public var levels: ClosedRange<Int> { min...max }

    public var description: String { min == max ? "\(min)" : "\(min)-\(max)" }
}
