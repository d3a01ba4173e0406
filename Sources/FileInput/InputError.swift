/// An input that cannot be read: missing, not a regular file, or over its size limit. Prints as
/// one line naming the path: `big.json: is 1073741824 bytes, more than the limit of 16 MiB`.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// A byte count as users read limits: `16 MiB` when it is a whole number of MiB, else bytes.
public func formatByteCount(_ bytes: Int) -> String {
    let mebibyte = 1 << 20
    if bytes >= mebibyte, bytes % mebibyte == 0 { return "\(bytes / mebibyte) MiB" }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
}
