/// The `index`-th of `count` disjoint parts of a job, numbered from 0 like Kubernetes'
/// `JOB_COMPLETION_INDEX` (a Slurm array `--array=0-3` gives the same numbers).
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// More parts than this is not a plan: each would hold a handful of metatiles.
    public static let maxCount = 100_000

    public init(index: Int, count: Int) throws(TilesError) {
        guard count >= 1, count <= Shard.maxCount else {
            throw .shardCountOutOfRange(index: index, count: count, max: Shard.maxCount)
        }
        guard index >= 0, index < count else { throw .shardIndexOutOfRange(index: index, count: count) }
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }
}
