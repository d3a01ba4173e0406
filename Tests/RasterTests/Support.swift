import Foundation
import Raster
import TestSupport
import Testing

let colourTypeFixtures = Repository.fixture("png/colour-types")

/// A fresh empty folder; the caller removes it with `TemporaryFolder.remove`.
func scratchDirectory() throws -> String {
    try TemporaryFolder.create().path
}

/// A PNG chunk as it lies in the file (read here independently of libpng).
struct Chunk {
    let type: String
    let data: [UInt8]
}

func chunks(of png: [UInt8]) -> [Chunk] {
    var result: [Chunk] = []
    var offset = 8
    while offset + 12 <= png.count {
        let length =
            Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
        let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
        guard offset + 12 + length <= png.count else { break }
        result.append(Chunk(type: type, data: Array(png[offset + 8..<offset + 8 + length])))
        offset += 12 + length
    }
    return result
}

/// (bit depth, colour type) from the IHDR chunk's bytes.
func ihdrDepthAndType(_ png: [UInt8]) -> (depth: Int, colourType: Int)? {
    guard let ihdr = chunks(of: png).first, ihdr.type == "IHDR", ihdr.data.count == 13 else { return nil }
    return (Int(ihdr.data[8]), Int(ihdr.data[9]))
}

func bigEndian32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.reduce(0) { $0 << 8 | UInt32($1) }
}

/// CRC-32 as PNG defines it (ISO 3309, reflected polynomial 0xEDB88320), for building
/// deliberately malformed files whose CRCs are still right.
func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// An image where pixel i has colour `colours[pattern(i)]`.
func image(width: Int, height: Int, colours: [RGBA], seed: UInt64 = 7) throws -> Image {
    var random = Xorshift(state: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for index in 0..<width * height {
        // every colour appears at least once when there are enough pixels
        let colour = index < colours.count ? colours[index] : colours[Int(random.next() % UInt64(colours.count))]
        bytes += [colour.r, colour.g, colour.b, colour.a]
    }
    return try Image(width: width, height: height, pixels: bytes)
}
