import CXXHash

/// The XXH3 128-bit hash of a byte string (xxHash 0.8, through Debian's libxxhash), for
/// finding identical tiles and naming stored images. Not cryptographic: equal hashes are a
/// hint, and the encoding cache and the MBTiles writers compare the bytes before they let
/// two tiles share an image.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hex digits, high half first: xxHash's canonical (big-endian) form, as
    /// `xxhsum -H2` prints it, and the `tile_id` of MBTiles images.
    public var hex: String {
        func digits(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return digits(high) + digits(low)
    }

    public var description: String { hex }

    public init(of bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ContentHash(of: $0) }
    }

    public init(of bytes: UnsafeRawBufferPointer) {
        // XXH3 accepts a null pointer for an empty input.
        let hash = meridian_xxh3_128(bytes.baseAddress, bytes.count)
        high = hash.high64
        low = hash.low64
    }
}
