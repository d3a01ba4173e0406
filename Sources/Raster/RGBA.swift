/// One colour with straight (not premultiplied) alpha, 8 bits per channel.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let transparent = RGBA(0, 0, 0, 0)
    public static let black = RGBA(0, 0, 0)
    public static let white = RGBA(255, 255, 255)

    /// The four bytes as they lie in memory (R first) read as one little-endian word: the
    /// key that colour counting and palette lookup hash on.
    public var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    public init(packed word: UInt32) {
        self.init(
            UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
            UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24))
    }

    /// `#rrggbbaa`, the way CSS and most map styles spell colours.
    public var description: String {
        "#"
            + [r, g, b, a].map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
    }
}
