import FileInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file operation that failed, with the path and the system's reason:
/// `cannot write out/map.png: No such file or directory`.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// "read", "write", "create", "rename"...
    public var operation: String
    public var reason: String

    public init(path: String, operation: String, reason: String) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    init(path: String, operation: String, errno code: Int32) {
        self.init(path: path, operation: operation, reason: String(cString: strerror(code)))
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}

/// Reading whole files, and writing whole files atomically (through `AtomicFile`).
public enum FileIO {
    /// The whole content of the regular file at `path` (a FIFO or a device is refused: one
    /// would block or never end), at most `limit` bytes.
    public static func readBytes(atPath path: String, limit: Int = .max) throws(FileError) -> [UInt8] {
        do {
            return try ReadableFile.contents(atPath: path, limit: limit)
        } catch {
            throw FileError(path: path, operation: "read", reason: error.reason)
        }
    }

    /// The names in the folder at `path` (not `.` and `..`), in no particular order. A folder
    /// that cannot be read is an error, never an empty list.
    public static func folderEntries(atPath path: String) throws(FileError) -> [String] {
        guard let folder = opendir(path) else { throw FileError(path: path, operation: "list", errno: errno) }
        defer { closedir(folder) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw FileError(path: path, operation: "list", errno: errno) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Whether `path` is a folder (symbolic links followed). An entry that cannot be examined
    /// (no permission, a broken or looping link) is an error, not "no".
    public static func isFolder(atPath path: String) throws(FileError) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileError(path: path, operation: "read", errno: errno) }
        return (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` under a temporary name beside `path`, then renames it over `path`
    /// (see `AtomicFile`); on failure nothing is left and the error names `path`.
    public static func writeAtomically(_ bytes: [UInt8], toPath path: String, durable: Bool = false) throws(FileError) {
        let file = try AtomicFile(path: path)
        try file.append(bytes)
        try file.commit(durable: durable)
    }
}
