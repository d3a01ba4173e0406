/// Errors of the batch tile job, each printed as one line that names what went wrong and where.
public enum TilesError: Error, CustomStringConvertible, Sendable, Equatable {
    /// An option or argument that makes no sense (`--zoom 7-3`, `--shard 5/4`, a tile count beyond
    /// the limit). The message says what was given and what is accepted.
    case invalidArgument(String)
    /// A file or directory that cannot be read or written.
    case io(path: String, message: String)
    /// An SQLite failure on an MBTiles file.
    case sqlite(path: String, message: String)
    /// An existing output that does not belong to this job (resume) or cannot be merged.
    case incompatibleOutput(path: String, message: String)
    /// Two different images with the same content hash (never seen; refused, not merged).
    case hashCollision(path: String, id: String)
    /// Rendering or encoding one metatile failed.
    case render(metatile: String, message: String)

    public var description: String {
        switch self {
        case .invalidArgument(let message): return message
        case .io(let path, let message): return "\(path): \(message)"
        case .sqlite(let path, let message): return "\(path): sqlite: \(message)"
        case .incompatibleOutput(let path, let message): return "\(path): \(message)"
        case .hashCollision(let path, let id):
            return
                "\(path): two different tile images have the same content hash \(id); nothing was stored for the second"
        case .render(let metatile, let message): return "metatile \(metatile): \(message)"
        }
    }
}
