/// One encoded tile on its way to the output.
public struct EncodedTile: Sendable {
    public let tile: TileID
    public let data: [UInt8]
    /// Hash of `data`, the stored image's identity.
    public let dataHash: ContentHash

    public init(tile: TileID, data: [UInt8], dataHash: ContentHash) {
        self.tile = tile
        self.data = data
        self.dataHash = dataHash
    }
}

/// Where a job's tiles go: a directory, an MBTiles file or a PMTiles archive. One writer thread calls `write`
/// and `finish`; the producer may call `storedTiles` at the same time (to resume a job), so
/// sinks guard their state themselves.
public protocol TileSink: AnyObject, Sendable {
    /// The tiles of `metatile` already stored (written whole by an earlier run).
    func storedTiles(in metatile: Metatile) throws -> Set<TileID>
    /// Stores the tiles. Each is complete once stored; a batch may be committed later.
    func write(_ tiles: [EncodedTile]) throws
    /// The job is complete: commits what is pending, puts the output in its place (an
    /// in-progress file renamed over the target) and tidies up (temporary files, the lock).
    func finish() throws
    /// The job failed or was stopped: commits what is complete, keeps what a `--resume` can
    /// use (the in-progress file, the incomplete marker), drops the rest, releases the lock.
    func abandon() throws
    /// The work is given up for good (a copy, which has nothing to resume): as `abandon`, and
    /// an in-progress file is deleted too. A directory keeps what was written, and its marker.
    func discard() throws
    /// What `write` has stored so far in this run.
    var statistics: SinkStatistics { get }
}

public struct SinkStatistics: Sendable, Equatable {
    /// Tiles written in this run.
    public var tiles = 0
    /// Bytes of tile data written to storage (an MBTiles file stores each distinct image once).
    public var bytes = 0
    /// Images stored that were not stored before, when the sink knows (MBTiles); nil otherwise.
    public var newImages: Int?

    public init() {}
}
