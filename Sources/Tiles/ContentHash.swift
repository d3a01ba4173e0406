/// A 128-bit fingerprint of a byte string, for finding identical tiles and naming stored
/// images. Not cryptographic: equal hashes are a hint, and the encoding cache compares the
/// pixels before it reuses an encoding.
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hex digits: the `tile_id` of MBTiles images.
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

    /// Four 64-bit lanes each take one word of every 32-byte stripe (add, multiply by a large
    /// odd constant, rotate: an order-sensitive, well-spread update that runs at memory speed),
    /// then the lanes, the tail and the length are folded into two words, each finished with
    /// the MurmurHash3 64-bit avalanche so every input bit reaches every output bit.
    public init(of bytes: UnsafeRawBufferPointer) {
        let p1: UInt64 = 0x9E37_79B1_85EB_CA87
        let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let p3: UInt64 = 0x1656_67B1_9E37_79F9
        var a: UInt64 = 0x243F_6A88_85A3_08D3
        var b: UInt64 = 0x1319_8A2E_0370_7344
        var c: UInt64 = 0xA409_3822_299F_31D0
        var d: UInt64 = 0x082E_FA98_EC4E_6C89
        @inline(__always) func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            ((lane &+ word &* p2) <<< 31) &* p1
        }
        let count = bytes.count
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 32 <= count {
                a = round(a, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                b = round(b, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
                c = round(c, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
                d = round(d, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
                offset += 32
            }
            while offset + 8 <= count {
                a = round(a ^ d, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                d = (d <<< 27) &+ a
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
                shift += 8
                offset += 1
            }
            if shift > 0 { b = round(b ^ c, tail ^ shift) }
        }
        let length = UInt64(count)
        let h1 = (a <<< 1) &+ (b <<< 7) &+ (c <<< 12) &+ (d <<< 18) &+ length &* p3
        let h2 = (a &* p3) ^ (b <<< 29) ^ (c &* p1 <<< 41) ^ (d &* p2) ^ (length <<< 17)
        high = ContentHash.avalanche(h1 ^ (h2 <<< 32))
        low = ContentHash.avalanche(h2 &+ h1 &* p2)
    }

    /// MurmurHash3's fmix64.
    @inline(__always) static func avalanche(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }
}

infix operator <<< : BitwiseShiftPrecedence

@inline(__always) func <<< (value: UInt64, amount: UInt64) -> UInt64 {
    (value << amount) | (value >> (64 - amount))
}
