#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder held open, for an output of many files in few folders (a tile pyramid's `z/x`).
///
/// Files made relative to the descriptor (`AtomicFile.createNew(named:in:bytes:)`) skip the
/// walk of the folder's path that every call with a whole path repeats, and they go where the
/// folder is now, even if it was renamed after it was opened. The descriptor only locates the
/// folder (`O_PATH`): it reads and writes nothing.
public final class OpenFolder: Sendable {
    /// The folder's path when it was opened; names files in error messages.
    public let path: String
    let descriptor: Int32

    /// Opens the folder `path`, which must exist.
    public init(path: String) throws(FileError) {
        self.path = path
        descriptor = try OpenFolder.open(path, relativeTo: AT_FDCWD, named: path)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// The folder `name` (one or more components, "3/5") inside this one, made first with
    /// each missing component when `create` is set.
    public func subfolder(_ name: String, create: Bool) throws(FileError) -> OpenFolder {
        let path = self.path + "/" + name
        do throws(FileError) {
            return OpenFolder(path: path, descriptor: try OpenFolder.open(name, relativeTo: descriptor, named: path))
        } catch {
            guard create, error.reason == OpenFolder.missing else { throw error }
        }
        // The usual case for a new output: open, then make what is missing, then open again,
        // so that a folder that exists (a resumed job, a server's cache) costs one call.
        var made = ""
        for component in name.split(separator: "/") {
            made += made.isEmpty ? String(component) : "/" + component
            if mkdirat(descriptor, made, 0o777) != 0 && errno != EEXIST {
                throw FileError(path: self.path + "/" + made, operation: "create", errno: errno)
            }
        }
        return OpenFolder(path: path, descriptor: try OpenFolder.open(name, relativeTo: descriptor, named: path))
    }

    /// Whether the folder was removed since it was opened (no name links to it any more).
    var isRemoved: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_nlink == 0
    }

    /// Linux's O_PATH, which Swift's Glibc does not import (it is a GNU extension).
    static let pathOnlyFlag: Int32 = 0o10_000_000

    /// The reason given when a folder does not exist.
    static let missing = "the folder does not exist"

    private static func open(_ name: String, relativeTo base: Int32, named path: String) throws(FileError) -> Int32 {
        let descriptor = openat(base, name, OpenFolder.pathOnlyFlag | O_DIRECTORY | O_CLOEXEC)
        guard descriptor < 0 else { return descriptor }
        let code = errno
        switch code {
        case ENOENT: throw FileError(path: path, operation: "open", reason: missing)
        case ENOTDIR:
            throw FileError(path: path, operation: "open", reason: "it, or a part of its path, is not a folder")
        default: throw FileError(path: path, operation: "open", errno: code)
        }
    }

    deinit {
        close(descriptor)
    }
}
