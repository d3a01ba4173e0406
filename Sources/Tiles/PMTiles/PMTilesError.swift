/// A PMTiles archive that cannot be read: one line naming the file, the byte where the
/// problem lies (when there is one) and what is wrong, e.g.
/// `world.pmtiles: at byte 127: root directory: entry 3 has length 0`.
public struct PMTilesError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// Offset in the file of the structure that is wrong.
    public var offset: UInt64?
    public var problem: String

    public init(path: String, offset: UInt64? = nil, problem: String) {
        self.path = path
        self.offset = offset
        self.problem = problem
    }

    public var description: String {
        offset.map { "\(path): at byte \($0): \(problem)" } ?? "\(path): \(problem)"
    }
}
