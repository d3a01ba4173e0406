#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One output file on its way to its final name: every file Meridian writes (images, pages,
/// GeoJSON, summaries, tiles, merged MBTiles) goes through here.
///
/// The content goes to a temporary file (in the target's folder, or in a staging folder the
/// caller names on the same filesystem); `commit` renames it over the target, so readers see
/// the old file or the new one, never a part, and a resumed job can trust whatever exists
/// under a final name. A file that is not committed (an error, a thrown body) is removed
/// when this object goes away. The target must be a regular file or absent: writing over a
/// directory, a device node or a symbolic link is refused before anything is written.
public final class AtomicFile {
    /// The final name.
    public let path: String
    /// Where the content is written until `commit`; a caller that writes through another
    /// library (Cairo, SQLite) opens this path.
    public let temporaryPath: String
    private var descriptor: Int32
    private var committed = false

    /// Creates the (empty) temporary file. `temporaryFolder` defaults to the target's own
    /// folder; another one must be on the same filesystem, or the rename fails.
    public init(path: String, temporaryFolder: String? = nil) throws(FileError) {
        try AtomicFile.checkTarget(path)
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let staging = temporaryFolder.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? folder
        while true {
            // Hidden, unique (random), and ending in .tmp so a stray one is recognisable.
            let candidate = staging + "." + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                self.path = path
                temporaryPath = candidate
                descriptor = fd
                return
            }
            let code = errno
            if code == EEXIST || code == EINTR { continue }
            if code == ENOENT {
                let missing = staging.isEmpty ? "." : String(staging.dropLast())
                throw FileError(path: path, operation: "write", reason: "the folder \(missing) does not exist")
            }
            throw FileError(path: path, operation: "write", errno: code)
        }
    }

    /// Refuses a target that exists and is not a regular file (a directory, a device node,
    /// a socket, a symbolic link: renaming over it would replace it, not write into it).
    /// Also for outputs that are not written through `AtomicFile` (an MBTiles file a job
    /// fills in place).
    public static func checkTarget(_ path: String) throws(FileError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw FileError(path: path, operation: "write", reason: "the output needs a file name")
        }
        var status = stat()
        if lstat(path, &status) != 0 {
            let code = errno
            if code == ENOENT { return }
            throw FileError(path: path, operation: "write", errno: code)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw FileError(path: path, operation: "write", reason: "it is a directory")
        case S_IFLNK: throw FileError(path: path, operation: "write", reason: "it is a symbolic link")
        default: throw FileError(path: path, operation: "write", reason: "it is not a regular file")
        }
    }

    /// Appends `bytes` to the temporary file.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard !committed, descriptor >= 0 else {
            throw FileError(path: path, operation: "write", reason: "the file is already committed")
        }
        try AtomicFile.writeAll(bytes, to: descriptor, path: path)
    }

    /// Writes all of `bytes` to `descriptor`; `path` names the file in an error.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "write", errno: errno)
            }
            offset += written
        }
    }

    public func append(_ bytes: [UInt8]) throws(FileError) {
        let result: Result<Void, FileError> = bytes.withUnsafeBytes { raw in
            do throws(FileError) {
                return .success(try append(raw))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Renames the temporary file over the target. `durable` flushes the data to disk (fsync)
    /// before the rename and the folder after it, for outputs that must survive a power cut;
    /// tiles skip it because one fsync per tile costs more than encoding the tile.
    public func commit(durable: Bool = false) throws(FileError) {
        guard !committed, descriptor >= 0 else {
            throw FileError(path: path, operation: "write", reason: "the file is already committed")
        }
        if durable, fsync(descriptor) != 0 { throw FileError(path: path, operation: "write", errno: errno) }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 { throw FileError(path: path, operation: "write", errno: errno) }
        guard rename(temporaryPath, path) == 0 else { throw FileError(path: path, operation: "write", errno: errno) }
        committed = true
        if durable {
            let fd = open(AtomicFile.folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError(path: path, operation: "write", errno: errno) }
            defer { close(fd) }
            if fsync(fd) != 0 { throw FileError(path: path, operation: "write", errno: errno) }
        }
    }

    /// The folder holding `path`, as `open` takes it: "/" for a file at the root, "." for a
    /// bare name.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    deinit {
        guard !committed else { return }
        if descriptor >= 0 { close(descriptor) }
        unlink(temporaryPath)
    }
}
