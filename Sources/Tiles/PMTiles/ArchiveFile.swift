import Foundation
import Raster

/// An open file that an archive is written to or read from: appends through a buffer, reads
/// at any offset (seeing buffered bytes too), and closes in deinit.
///
/// `FileIO.writeAtomically` wants the whole file in memory; an archive of a large pyramid
/// is streamed instead, so its writer builds it in one of these and renames it into place.
final class ArchiveFile {
    /// The name used in messages (an anonymous scratch file keeps the name it was made with).
    let path: String
    private let fd: Int32
    private var pending: [UInt8] = []
    /// Bytes already handed to the kernel; the file's size is this plus `pending`.
    private var written: UInt64
    private var removeOnClose: String?

    static let bufferSize = 1 << 20

    private init(path: String, fd: Int32, size: UInt64) {
        self.path = path
        self.fd = fd
        self.written = size
        pending.reserveCapacity(ArchiveFile.bufferSize)
    }

    deinit {
        close(fd)
        if let removeOnClose { unlink(removeOnClose) }
    }

    private static func failure(_ path: String, _ operation: String) -> FileError {
        FileError(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }

    /// Opens an existing file for reading.
    static func reading(_ path: String) throws(FileError) -> ArchiveFile {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "read") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw failure(path, "read")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileError(path: path, operation: "read", reason: "not a regular file")
        }
        return ArchiveFile(path: path, fd: fd, size: UInt64(status.st_size))
    }

    /// Creates (or empties) `path` for writing; it is deleted when closed unless `keep()` is
    /// called. `anonymous` unlinks it at once: a scratch file nothing else needs to see, which
    /// vanishes with the process however it ends.
    static func creating(_ path: String, anonymous: Bool = false) throws(FileError) -> ArchiveFile {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "create") }
        let file = ArchiveFile(path: path, fd: fd, size: 0)
        if anonymous { unlink(path) } else { file.removeOnClose = path }
        return file
    }

    var size: UInt64 { written + UInt64(pending.count) }

    func append(_ bytes: some Collection<UInt8>) throws(FileError) {
        if pending.count + bytes.count > ArchiveFile.bufferSize { try flush() }
        if bytes.count >= ArchiveFile.bufferSize {
            try writeAll(Array(bytes))
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    func flush() throws(FileError) {
        guard !pending.isEmpty else { return }
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        try writeAll(bytes)
    }

    private func writeAll(_ bytes: [UInt8]) throws(FileError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(written)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ArchiveFile.failure(path, "write")
            }
            done += n
            written += UInt64(n)
        }
    }

    /// `count` bytes from `offset`; fewer only at the end of the file.
    func read(at offset: UInt64, count: Int) throws(FileError) -> [UInt8] {
        if offset >= written, offset - written <= UInt64(pending.count) {
            let start = Int(offset - written)
            return Array(pending[start..<min(pending.count, start + count)])
        }
        if offset + UInt64(count) > written { try flush() }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset + UInt64(done)))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw ArchiveFile.failure(path, "read")
            }
            if n == 0 { break }
            done += n
        }
        if done < count { bytes.removeLast(count - done) }
        return bytes
    }

    /// Appends `length` bytes of `source` from `offset`, in bounded chunks.
    func append(from source: ArchiveFile, offset: UInt64, length: UInt64) throws(FileError) {
        var copied: UInt64 = 0
        while copied < length {
            let chunk = Int(min(length - copied, UInt64(ArchiveFile.bufferSize)))
            let bytes = try source.read(at: offset + copied, count: chunk)
            guard bytes.count == chunk else {
                throw FileError(path: source.path, operation: "read", reason: "it is shorter than expected")
            }
            try append(bytes)
            copied += UInt64(chunk)
        }
    }

    /// Empties the file (a scratch file reused for another attempt).
    func truncate() throws(FileError) {
        pending.removeAll(keepingCapacity: true)
        guard ftruncate(fd, 0) == 0 else { throw ArchiveFile.failure(path, "write") }
        written = 0
    }

    /// Flushes to disk and renames the file to `destination`, which it replaces atomically.
    func keep(as destination: String) throws(FileError) {
        try flush()
        guard fsync(fd) == 0 else { throw ArchiveFile.failure(destination, "write") }
        guard rename(path, destination) == 0 else { throw ArchiveFile.failure(destination, "rename to") }
        removeOnClose = nil
    }
}
