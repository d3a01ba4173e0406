#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// What `createNew` did.
    public enum NewFile: Sendable {
        /// The file exists under its name, complete.
        case written
        /// Something already has the name: nothing was written (write it with `AtomicFile`,
        /// which replaces a file and refuses anything else).
        case exists
        /// The filesystem cannot make unnamed files (or /proc is missing): nothing was
        /// written; use `AtomicFile`.
        case unsupported
    }

    /// Linux's O_TMPFILE, a macro Swift does not import (`__O_TMPFILE | O_DIRECTORY`; the
    /// value of x86-64 and arm64).
    static let unnamedFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Creates the file `path` holding `bytes` when nothing has that name, for outputs of
    /// many small files written from several threads at once (a tile pyramid).
    ///
    /// The bytes go to a file with no name in the target's own folder (`O_TMPFILE`), which is
    /// linked under `path` once complete: as with `AtomicFile`, a reader never sees part of
    /// it, and a process killed half-way leaves nothing behind (the kernel frees an unnamed
    /// file with its last descriptor). Unlike an `AtomicFile` in a staging folder, nothing is
    /// renamed from one folder into another: the kernel serialises those renames across the
    /// whole filesystem and locks the staging folder, so writer threads that all create in
    /// and rename from one folder queue on one another (issue 18; docs/performance.md).
    public static func createNew(path: String, bytes: [UInt8]) throws(FileError) -> NewFile {
        let folder = AtomicFile.folder(of: path)
        let descriptor = open(folder, AtomicFile.unnamedFileFlag | O_WRONLY | O_CLOEXEC, 0o666)
        if descriptor < 0 {
            let code = errno
            // EISDIR and EINVAL: kernels and filesystems without O_TMPFILE.
            if code == EOPNOTSUPP || code == EISDIR || code == EINVAL { return .unsupported }
            if code == ENOENT {
                throw FileError(path: path, operation: "write", reason: "the folder \(folder) does not exist")
            }
            throw FileError(path: path, operation: "write", errno: code)
        }
        let failure: FileError? = bytes.withUnsafeBytes { raw in
            do throws(FileError) {
                try writeAll(raw, to: descriptor, path: path)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            close(descriptor)
            throw failure
        }
        // Linking the descriptor itself (AT_EMPTY_PATH) needs a capability before Linux 6.10;
        // its /proc name works for any process that holds it.
        if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0 {
            let code = errno
            close(descriptor)
            if code == EEXIST { return .exists }
            // The folder was opened a moment ago, so a missing name is /proc's.
            if code == ENOENT { return .unsupported }
            throw FileError(path: path, operation: "write", errno: code)
        }
        guard close(descriptor) == 0 else { throw FileError(path: path, operation: "write", errno: errno) }
        return .written
    }
}
