import Foundation
import Raster

/// An anonymous scratch file beside an archive: appends through a buffer, reads back at any
/// offset (buffered bytes too). Its name is unlinked as soon as it is made, so it vanishes
/// with the process however that ends; the descriptor is closed in deinit.
final class ScratchFile {
    /// The name it was made with, for messages.
    let path: String
    private let fd: Int32
    private var pending: [UInt8] = []
    /// Bytes already handed to the kernel; the file's size is this plus `pending`.
    private var written: UInt64 = 0

    static let bufferSize = 1 << 20

    /// Creates the scratch file `path` (which must not exist) and unlinks it at once.
    init(path: String) throws(FileError) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw FileError(path: path, operation: "create", reason: String(cString: strerror(errno)))
        }
        unlink(path)
        self.path = path
        self.fd = fd
        pending.reserveCapacity(ScratchFile.bufferSize)
    }

    deinit { close(fd) }

    var size: UInt64 { written + UInt64(pending.count) }

    func append(_ bytes: some Collection<UInt8>) throws(FileError) {
        if pending.count + bytes.count > ScratchFile.bufferSize { try flush() }
        if bytes.count >= ScratchFile.bufferSize {
            try writeAll(Array(bytes))
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private func flush() throws(FileError) {
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
                throw FileError(path: path, operation: "write", reason: String(cString: strerror(errno)))
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
        return try FileRegion.read(fd, at: offset, count: count, path: path)
    }

    /// Empties the file (a scratch file reused for another attempt).
    func truncate() throws(FileError) {
        pending.removeAll(keepingCapacity: true)
        guard ftruncate(fd, 0) == 0 else {
            throw FileError(path: path, operation: "write", reason: String(cString: strerror(errno)))
        }
        written = 0
    }
}

/// A regular file opened for reading at any offset: what an archive reader needs. It holds
/// nothing that changes (`pread` takes the offset with it), so threads may read at once.
final class ReadOnlyFile: Sendable {
    let path: String
    private let fd: Int32
    let size: UInt64

    init(path: String) throws(FileError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileError(path: path, operation: "read", reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw FileError(path: path, operation: "read", reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileError(path: path, operation: "read", reason: "not a regular file")
        }
        self.path = path
        self.fd = fd
        size = UInt64(status.st_size)
    }

    deinit { close(fd) }

    /// `count` bytes from `offset`; fewer only at the end of the file.
    func read(at offset: UInt64, count: Int) throws(FileError) -> [UInt8] {
        try FileRegion.read(fd, at: offset, count: count, path: path)
    }
}

/// Reading a region of an open file, the one loop both file types share.
private enum FileRegion {
    static func read(_ fd: Int32, at offset: UInt64, count: Int, path: String) throws(FileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset + UInt64(done)))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            done += n
        }
        if done < count { bytes.removeLast(count - done) }
        return bytes
    }
}

/// An archive on its way to its final name: an `AtomicFile` fed through a buffer, so that
/// many small appends (directories, tiles) make few writes.
final class ArchiveOutput {
    private let file: AtomicFile
    private var pending: [UInt8] = []

    init(path: String) throws(FileError) {
        file = try AtomicFile(path: path)
        pending.reserveCapacity(ScratchFile.bufferSize)
    }

    func append(_ bytes: some Collection<UInt8>) throws(FileError) {
        pending.append(contentsOf: bytes)
        if pending.count >= ScratchFile.bufferSize { try flush() }
    }

    /// Appends `length` bytes of `source` from `offset`, in bounded chunks.
    func append(from source: ScratchFile, offset: UInt64, length: UInt64) throws(FileError) {
        var copied: UInt64 = 0
        while copied < length {
            let chunk = Int(min(length - copied, UInt64(ScratchFile.bufferSize)))
            let bytes = try source.read(at: offset + copied, count: chunk)
            guard bytes.count == chunk else {
                throw FileError(path: source.path, operation: "read", reason: "it is shorter than expected")
            }
            try append(bytes)
            copied += UInt64(chunk)
        }
    }

    private func flush() throws(FileError) {
        try file.append(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and renames the file over its target, flushed to disk first:
    /// an archive is written once, at the end of a job, and must survive a power cut.
    func commit() throws(FileError) {
        try flush()
        try file.commit(durable: true)
    }
}
