import Synchronization

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

    /// Linking a descriptor itself (`AT_EMPTY_PATH`, a GNU flag Swift does not import).
    static let emptyPathFlag: Int32 = 0x1000

    /// Whether `linkat` takes the unnamed file's descriptor itself. Linux before 6.10 allows
    /// that only with CAP_DAC_READ_SEARCH; without it the file is linked through its /proc
    /// name, and once that is seen to be needed, every later file goes that way.
    private static let linksByDescriptor = Atomic(true)

    /// Creates the file `name` in `folder` holding `bytes` when nothing has that name, for
    /// outputs of many small files written from several threads at once (a tile pyramid).
    ///
    /// The bytes go to a file with no name in the folder (`O_TMPFILE`), which is linked under
    /// `name` once complete: as with `AtomicFile`, a reader never sees part of it, and a
    /// process killed half-way leaves nothing behind (the kernel frees an unnamed file with
    /// its last descriptor). Unlike an `AtomicFile` in a staging folder, nothing is renamed
    /// from one folder into another: the kernel serialises those renames across the whole
    /// filesystem and locks the staging folder, so writer threads that all create in and
    /// rename from one folder queue on one another (issue 18; docs/performance.md). Both
    /// calls that find a folder start from the open folder, so no path is walked per file.
    public static func createNew(named name: String, in folder: OpenFolder, bytes: [UInt8]) throws(FileError)
        -> NewFile
    {
        try createNew(
            named: name, in: folder, bytes: bytes, byDescriptor: linksByDescriptor.load(ordering: .relaxed))
    }

    /// `createNew`, linking by descriptor or (`byDescriptor` false) through /proc.
    static func createNew(named name: String, in folder: OpenFolder, bytes: [UInt8], byDescriptor: Bool)
        throws(FileError) -> NewFile
    {
        let path = folder.path + "/" + name
        let descriptor = openat(folder.descriptor, ".", AtomicFile.unnamedFileFlag | O_WRONLY | O_CLOEXEC, 0o666)
        if descriptor < 0 {
            let code = errno
            // EISDIR and EINVAL: kernels and filesystems without O_TMPFILE.
            if code == EOPNOTSUPP || code == EISDIR || code == EINVAL { return .unsupported }
            // Linux says EPERM (or ENOENT) for a folder removed after it was opened.
            if folder.isRemoved {
                throw FileError(path: path, operation: "write", reason: "the folder \(folder.path) does not exist")
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
        var linked = byDescriptor && linkat(descriptor, "", folder.descriptor, name, emptyPathFlag) == 0
        // ENOENT from AT_EMPTY_PATH: no permission to link a descriptor (or the folder is gone).
        if !linked && (!byDescriptor || errno == ENOENT) {
            linked = linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder.descriptor, name, AT_SYMLINK_FOLLOW) == 0
            if linked && byDescriptor { linksByDescriptor.store(false, ordering: .relaxed) }
        }
        if !linked {
            let code = errno
            close(descriptor)
            if code == EEXIST { return .exists }
            // The file was made a moment ago, so a missing name is /proc's.
            if code == ENOENT { return .unsupported }
            throw FileError(path: path, operation: "write", errno: code)
        }
        guard close(descriptor) == 0 else { throw FileError(path: path, operation: "write", errno: errno) }
        return .written
    }
}
