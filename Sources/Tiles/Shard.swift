/// `--shard I/N`: the I-th of N disjoint parts of a job, numbered from 0 like Kubernetes'
/// `JOB_COMPLETION_INDEX` (a Slurm array `--array=0-3` gives the same numbers).
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// More parts than this is not a plan: each would hold a handful of metatiles.
    public static let maxCount = 100_000

    public init(index: Int, count: Int) throws(TilesError) {
        guard count >= 1, count <= Shard.maxCount else {
            throw .invalidArgument(
                "--shard \(index)/\(count): the number of shards must be from 1 to \(Shard.maxCount)")
        }
        guard index >= 0, index < count else {
            throw .invalidArgument(
                "--shard \(index)/\(count): the index must be from 0 to \(count - 1) (shards are numbered from 0)")
        }
        self.index = index
        self.count = count
    }

    public init(parsing text: String) throws(TilesError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidArgument("--shard expects I/N (the I-th of N parts, I from 0), got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }
}
