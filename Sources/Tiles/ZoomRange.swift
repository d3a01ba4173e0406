/// The zoom levels of a job, from `min` to `max` (equal for one level).
public struct ZoomRange: Sendable, Equatable, CustomStringConvertible {
    public let min: Int
    public let max: Int

    /// The deepest zoom accepted. At zoom 24 a 512 px @2x tile is 2^-24 of a 2^34 px world:
    /// global pixel positions stay exact in a Double, and no map needs finer tiles.
    public static let deepest = 24

    public init(min: Int, max: Int) throws(TilesError) {
        guard min >= 0, max <= ZoomRange.deepest else {
            throw .zoomOutOfRange(min: min, max: max, deepest: ZoomRange.deepest)
        }
        guard min <= max else { throw .zoomReversed(min: min, max: max) }
        self.min = min
        self.max = max
    }

    public var levels: ClosedRange<Int> { min...max }

    public var description: String { min == max ? "\(min)" : "\(min)-\(max)" }
}
