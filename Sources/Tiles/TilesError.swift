/// Errors of the batch tile job. Each case carries what was given and what is accepted; its
/// description is one line in the library's terms, and the command line words the parameter
/// cases with its own option names.
public enum TilesError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Zoom levels beyond 0...`deepest`.
    case zoomOutOfRange(min: Int, max: Int, deepest: Int)
    /// A zoom range whose first level is above its last.
    case zoomReversed(min: Int, max: Int)
    /// A longitude/latitude box that is not one, or lies outside the Web Mercator map.
    case invalidBounds(west: Double, south: Double, east: Double, north: Double, problem: BoundsProblem)
    /// More tiles than one job may have; `zoom` is the level where the count passed `limit`.
    case tooManyTiles(zooms: ZoomRange, bounds: GeoBounds, zoom: Int, count: Int, limit: Int)
    case shardCountOutOfRange(index: Int, count: Int, max: Int)
    case shardIndexOutOfRange(index: Int, count: Int)
    case unsupportedTileSize(Int)
    case unsupportedPixelRatio(Int)
    case metatileSizeOutOfRange(Int, max: Int)
    case workersOutOfRange(Int, max: Int)
    case bufferOutOfRange(Int, max: Int)
    /// A merge without inputs.
    case noInputs
    /// A merge whose output is one of its inputs.
    case outputIsInput(path: String)
    /// A lossy quality outside 1...100.
    case qualityOutOfRange(Int)

    /// A file or directory that cannot be read or written.
    case io(path: String, message: String)
    /// An SQLite failure on an MBTiles file.
    case sqlite(path: String, message: String)
    /// An existing file that cannot be used: not MBTiles, or not mergeable with the others.
    case incompatibleOutput(path: String, message: String)
    /// Another process holds the output's lock: a second job writing the same output.
    case outputBusy(path: String)
    /// The job was asked to stop (a signal) after `done` of its `total` tiles were stored.
    case stopped(done: Int, total: Int)
    /// A copy (`convert`, `merge`) was asked to stop after `copied` tiles; its output was not made.
    case copyStopped(copied: Int)
    /// An MBTiles file to resume that was not written by a tile job.
    case notResumable(path: String)
    /// An MBTiles file to resume whose job options differ: `key` of its metadata.
    case differentJob(path: String, key: String, found: String?, expected: String?)
    /// Two different images with the same content hash (never seen; refused, not merged).
    case hashCollision(path: String, id: String)
    /// Rendering or encoding one metatile failed.
    case render(metatile: String, message: String)
    /// A tile set whose `format` an archive cannot hold (a PMTiles header has no type for it).
    case unsupportedTileFormat(path: String, format: String)
    /// A tile set whose metadata lacks `key`, which the archive needs.
    case missingMetadata(path: String, key: String)
    /// A tile an archive cannot store.
    case tileNotStorable(path: String, tile: TileID, problem: TileStorageProblem)
    /// More distinct tile images than one archive writer holds.
    case tooManyDistinctTiles(path: String, limit: Int)

    public enum BoundsProblem: Sendable, Equatable {
        case notANumber
        case outsideWorld
        case empty
        /// Entirely north or south of the Web Mercator square, which ends at `limit` degrees.
        case beyondMercator(limit: Double)
    }

    public enum TileStorageProblem: Sendable, Equatable {
        /// Deeper than the archive's deepest zoom, or x/y outside the zoom.
        case outsideZoom(deepest: Int)
        /// A size outside 1...`limit` bytes.
        case size(bytes: Int, limit: Int)
        /// The same tile given twice.
        case duplicate
    }

    /// True for a job parameter out of range (what a user mistyped), false for trouble with
    /// files or rendering.
    public var isInvalidParameter: Bool {
        switch self {
        case .zoomOutOfRange, .zoomReversed, .invalidBounds, .tooManyTiles, .shardCountOutOfRange,
            .shardIndexOutOfRange, .unsupportedTileSize, .unsupportedPixelRatio, .metatileSizeOutOfRange,
            .workersOutOfRange, .bufferOutOfRange, .noInputs, .outputIsInput, .qualityOutOfRange:
            return true
        case .io, .sqlite, .incompatibleOutput, .outputBusy, .stopped, .copyStopped, .notResumable, .differentJob,
            .hashCollision,
            .render,
            .unsupportedTileFormat, .missingMetadata, .tileNotStorable, .tooManyDistinctTiles:
            return false
        }
    }

    public var description: String {
        switch self {
        case .zoomOutOfRange(let min, let max, let deepest):
            return "zoom levels \(min)-\(max) are out of range: zoom levels go from 0 to \(deepest)"
        case .zoomReversed(let min, let max):
            return "the zoom range \(min)-\(max) is empty: the lower zoom comes first (\(max)-\(min))"
        case .invalidBounds(let west, let south, let east, let north, let problem):
            let given = GeoBounds.text(west, south, east, north)
            switch problem {
            case .notANumber: return "the bounds \(given) have a value that is not a number"
            case .outsideWorld: return "the bounds \(given) are outside -180,-90,180,90 (W,S,E,N in degrees)"
            case .empty: return "the bounds \(given) are empty: W,S,E,N needs W < E and S < N"
            case .beyondMercator(let limit):
                return
                    "the bounds \(given) lie beyond latitude \(GeoBounds.format(limit)), outside the Web Mercator map"
            }
        case .tooManyTiles(let zooms, let bounds, let zoom, let count, let limit):
            return
                "zoom levels \(zooms) over \(bounds) have more than \(limit) tiles (zoom \(zoom) alone has \(count)): narrow the zoom range or the bounds"
        case .shardCountOutOfRange(let index, let count, let max):
            return "shard \(index)/\(count): the number of shards must be from 1 to \(max)"
        case .shardIndexOutOfRange(let index, let count):
            return "shard \(index)/\(count): the index must be from 0 to \(count - 1) (shards are numbered from 0)"
        case .unsupportedTileSize(let size):
            return "a tile size of \(size) pixels is not supported: use 256 or 512"
        case .unsupportedPixelRatio(let ratio):
            return "a pixel ratio of \(ratio) is not supported: use 1 or 2 (@2x tiles)"
        case .metatileSizeOutOfRange(let size, let max):
            return "a metatile of \(size) tiles a side is out of range: 1 to \(max)"
        case .workersOutOfRange(let workers, let max):
            return "\(workers) workers is out of range: 1 to \(max)"
        case .bufferOutOfRange(let buffer, let max):
            return "a buffer of \(buffer) pixels is out of range: 0 to \(max)"
        case .noInputs:
            return "no MBTiles files to merge"
        case .outputIsInput(let path):
            return "the output \(path) is also an input"
        case .qualityOutOfRange(let quality):
            return "a quality of \(quality) is out of range: 1 (smallest) to 100 (best)"
        case .io(let path, let message): return "\(path): \(message)"
        case .sqlite(let path, let message): return "\(path): sqlite: \(message)"
        case .incompatibleOutput(let path, let message): return "\(path): \(message)"
        case .outputBusy(let path):
            return "\(path): another job is writing it (it holds the output's lock)"
        case .stopped(let done, let total):
            return "stopped at \(done) of \(total) tiles"
        case .copyStopped(let copied):
            return "stopped after \(copied) tiles: the output was not made"
        case .notResumable(let path):
            return "\(path): is not an MBTiles file written by a tile job, so the job cannot resume it"
        case .differentJob(let path, let key, let found, let expected):
            return
                "\(path): was made by a different job (\(key) is '\(found ?? "missing")', this job's is '\(expected ?? "missing")'): resuming needs the same zoom levels, bounds, tile size, pixel ratio and buffer"
        case .hashCollision(let path, let id):
            return
                "\(path): two different tile images have the same content hash \(id); nothing was stored for the second"
        case .render(let metatile, let message): return "metatile \(metatile): \(message)"
        case .unsupportedTileFormat(let path, let format):
            return "\(path): tiles in the format '\(format)' cannot be stored here (png, webp or jpg)"
        case .missingMetadata(let path, let key):
            return "\(path): the tile set's metadata has no '\(key)'"
        case .tileNotStorable(let path, let tile, let problem):
            switch problem {
            case .outsideZoom(let deepest):
                return "\(path): tile \(tile) is not a tile of zoom 0 to \(deepest)"
            case .size(let bytes, let limit):
                return "\(path): tile \(tile) has \(bytes) bytes: 1 to \(limit) can be stored"
            case .duplicate:
                return "\(path): tile \(tile) was given twice"
            }
        case .tooManyDistinctTiles(let path, let limit):
            return "\(path): more than \(limit) distinct tile images do not fit one archive"
        }
    }
}
