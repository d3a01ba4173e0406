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

/// Reading whole files and writing them atomically. Every output of Meridian (images, tiles,
/// sheets) goes through `writeAtomically`, so that an interrupted run never leaves a partial
/// file under the final name and a resumed run can trust whatever exists.
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

    /// Writes `bytes` to a temporary file in the same directory as `path`, then renames it
    /// over `path`; readers see the old file or the new one, never a part. On failure the
    /// temporary is removed and the error names `path`.
    ///
    /// `durable` also flushes the data to disk before the rename (fsync), for outputs that must
    /// survive a power cut; tiles skip it because one fsync per tile costs more than the encode.
    public static func writeAtomically(_ bytes: [UInt8], toPath path: String, durable: Bool = false) throws(FileError) {
        let result: Result<Void, FileError> = bytes.withUnsafeBytes { raw in
            do throws(FileError) {
                return .success(try writeAtomically(raw, toPath: path, durable: durable))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    public static func writeAtomically(_ bytes: UnsafeRawBufferPointer, toPath path: String, durable: Bool = false)
        throws(FileError)
    {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw FileError(path: path, operation: "write", errno: EISDIR) }
        // Hidden, unique per call (random), and ending in .tmp so stray ones are recognisable.
        let temporary = directory + "." + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw FileError(path: path, operation: "write", errno: errno) }
        var failure: FileError?
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = FileError(path: path, operation: "write", errno: errno)
                break
            }
            offset += written
        }
        if failure == nil, durable, fsync(fd) != 0 {
            failure = FileError(path: path, operation: "write", errno: errno)
        }
        if close(fd) != 0, failure == nil {
            failure = FileError(path: path, operation: "write", errno: errno)
        }
        if failure == nil, rename(temporary, path) != 0 {
            failure = FileError(path: path, operation: "write", errno: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
