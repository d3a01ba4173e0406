#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a stream (standard input), each held only up to `maxLength` bytes, so that
/// memory stays bounded whatever arrives: a longer line is reported once as `.tooLong` and the
/// rest of it is skipped, then reading goes on with the next line.
public struct LineReader {
    public enum Line: Equatable, Sendable {
        /// A line without its "\n" or "\r\n"; invalid UTF-8 is replaced by U+FFFD.
        case text(String)
        /// A line longer than `maxLength` bytes (without its line ending).
        case tooLong
    }

    public let descriptor: Int32
    public let maxLength: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The current line was reported too long; its remaining bytes are to be skipped.
    private var skippingRest = false

    public init(descriptor: Int32, maxLength: Int) {
        self.descriptor = descriptor
        self.maxLength = maxLength
    }

    /// The next line, or nil at the end of the stream. A last line without "\n" still counts.
    /// A line is reported `.tooLong` as soon as it passes the limit, so that an endless line
    /// (/dev/zero) is reported at once; the rest of it is skipped by the next call.
    public mutating func next() throws(InputError) -> Line? {
        var line: [UInt8] = []
        while true {
            if start == end {
                guard !atEnd, try fill() else {
                    atEnd = true
                    if skippingRest || line.isEmpty { return nil }
                    return line.count > maxLength ? .tooLong : .text(Self.text(line))
                }
            }
            let newline = newlineIndex()
            let stop = newline ?? end
            defer { start = newline.map { $0 + 1 } ?? end }
            if skippingRest {
                if newline != nil { skippingRest = false }
                continue
            }
            // One byte of slack for the "\r" of a "\r\n" ending.
            if line.count + (stop - start) > maxLength + 1 {
                skippingRest = newline == nil
                return .tooLong
            }
            line.append(contentsOf: buffer[start..<stop])
            if newline != nil {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return line.count > maxLength ? .tooLong : .text(Self.text(line))
            }
        }
    }

    /// Where the next "\n" in the buffered bytes is (memchr: fast even in debug builds, where
    /// the bytes of an endless line are all scanned).
    private func newlineIndex() -> Int? {
        buffer.withUnsafeBytes { bytes in
            guard let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start) else {
                return nil
            }
            return found - UnsafeMutableRawPointer(mutating: bytes.baseAddress!)
        }
    }

    /// Refills the buffer; false at the end of the stream.
    private mutating func fill() throws(InputError) -> Bool {
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got > 0 {
                start = 0
                end = got
                return true
            }
            if got == 0 { return false }
            if errno != EINTR {
                throw InputError(path: "standard input", reason: String(cString: strerror(errno)))
            }
        }
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
