#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path names, as stat(2) sees it (symbolic links followed). Inputs are read only from
/// regular files (and folders where a folder is meant): opening a FIFO waits for a writer
/// forever, and a device such as /dev/zero never ends.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case missing
    case regular
    case directory
    case fifo
    case characterDevice
    case blockDevice
    case socket
    /// stat failed for another reason than a missing path (permissions, a loop of links...).
    case unreadable(reason: String)

    public init(atPath path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            self = code == ENOENT ? .missing : .unreadable(reason: String(cString: strerror(code)))
            return
        }
        self.init(mode: status.st_mode)
    }

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unreadable(reason: "unknown file type")
        }
    }

    public var description: String {
        switch self {
        case .missing: return String(cString: strerror(ENOENT))
        case .regular: return "a regular file"
        case .directory: return "a folder"
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .unreadable(let reason): return reason
        }
    }

    /// Why a path of this kind cannot be read as a file, nil for a regular file.
    public var notAFileReason: String? {
        switch self {
        case .regular: return nil
        case .missing, .unreadable: return description
        default: return "is \(description), not a regular file"
        }
    }

    /// Checks that `path` is a regular file, for inputs that a C library opens itself
    /// (SQLite, fontconfig), so that a FIFO or a device is refused before it can block.
    public static func requireRegularFile(atPath path: String) throws(InputError) {
        if let reason = FileKind(atPath: path).notAFileReason { throw InputError(path: path, reason: reason) }
    }
}
