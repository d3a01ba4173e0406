#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input file opened for reading: always a regular file, checked on the open descriptor
/// (no race between the check and the read). Owns the descriptor and closes it in deinit.
public final class ReadableFile {
    public let path: String
    public let descriptor: Int32
    /// The size when it was opened.
    public let size: Int

    public init(path: String) throws(InputError) {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever,
        // before there is a descriptor to check.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw InputError(path: path, reason: reason)
        }
        if let reason = FileKind(mode: status.st_mode).notAFileReason {
            close(fd)
            throw InputError(path: path, reason: reason)
        }
        // Regular files ignore O_NONBLOCK; cleared anyway so reads mean what they say.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.path = path
        self.descriptor = fd
        self.size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Reads at most `buffer.count` bytes; 0 means the end of the file.
    public func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            let got = read(descriptor, buffer.baseAddress, buffer.count)
            if got >= 0 { return got }
            if errno != EINTR { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    /// The whole file, refused without reading when it is over `limit` bytes (and when it
    /// grows past the limit while being read).
    public func readAll(limit: Int) throws(InputError) -> [UInt8] {
        guard size <= limit else {
            throw InputError(path: path, reason: "is \(size) bytes, more than the limit of \(formatByteCount(limit))")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let got = try readSome(into: chunk)
            if got == 0 { return bytes }
            guard got <= limit - bytes.count else {
                throw InputError(
                    path: path, reason: "grew past the limit of \(formatByteCount(limit)) while being read")
            }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }

    /// The content of the regular file at `path`, at most `limit` bytes.
    public static func contents(atPath path: String, limit: Int) throws(InputError) -> [UInt8] {
        try ReadableFile(path: path).readAll(limit: limit)
    }
}
