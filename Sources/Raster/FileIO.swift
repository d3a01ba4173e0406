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
    /// The whole content of the file at `path`.
    public static func readBytes(atPath path: String) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: "read", errno: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw FileError(path: path, operation: "read", errno: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, operation: "read", errno: EISDIR)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(status.st_size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", errno: errno)
            }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
        }
        return bytes
    }

    /// Writes `bytes` under a temporary name beside `path`, then renames it over `path`
    /// (see `AtomicFile`); on failure nothing is left and the error names `path`.
    public static func writeAtomically(_ bytes: [UInt8], toPath path: String, durable: Bool = false) throws(FileError) {
        let file = try AtomicFile(path: path)
        try file.append(bytes)
        try file.commit(durable: durable)
    }
}
