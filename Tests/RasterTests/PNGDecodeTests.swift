import Foundation
import TestSupport
import Testing

@testable import Raster

@Suite struct PNGDecodeTests {
    /// The fixtures' names; an unreadable fixture folder fails the test that asks.
    static func fixtureNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: colourTypeFixtures).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test func everyColourTypeFixtureIsPresent() throws {
        // gray 1/2/4/8/16, gray+tRNS x3, gray+alpha 8/16, RGB 8/16 (+tRNS), RGBA 8/16,
        // palette 1/2/4/8 with and without tRNS, two degenerate sizes; plain and interlaced.
        #expect(try Self.fixtureNames().count == 52)
    }

    /// Meridian's libpng decoding and pypng's must agree on every pixel of every fixture.
    @Test func everyColourTypeMatchesTheReferenceDecoder() throws {
        let paths = try Self.fixtureNames().map { colourTypeFixtures + "/" + $0 }
        let references = try referenceDecode(paths)
        for (path, reference) in zip(paths, references) {
            let decoded = try PNG.decode(contentsOf: path)
            #expect(decoded.width == reference.width && decoded.height == reference.height, "\(path)")
            let differing = zip(decoded.pixels, reference.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(path): \(differing) bytes differ from the reference decoding")
        }
    }

    /// The header reader reports what the file names say: the fixtures really cover each case.
    @Test func headersMatchTheFixtureNames() throws {
        let types: [(prefix: String, type: PNGColourType)] = [
            ("grayalpha", .grayAlpha), ("gray", .gray), ("rgba", .rgba), ("rgb", .rgb), ("palette", .palette),
        ]
        for name in try Self.fixtureNames() where !name.hasPrefix("tiny") {
            let header = try PNG.header(of: FileIO.readBytes(atPath: colourTypeFixtures + "/" + name))
            let expected = try #require(types.first { name.hasPrefix($0.prefix) })
            #expect(header.colourType == expected.type, "\(name)")
            let depth = Int(name.dropFirst(expected.prefix.count).prefix { $0.isNumber })
            #expect(header.bitDepth == depth, "\(name)")
            #expect(header.interlaced == name.contains("interlaced"), "\(name)")
            #expect(header.width == 37 && header.height == 23)
        }
    }

    @Test func sixteenBitSamplesAreScaledWithRounding() throws {
        // pypng wrote these samples; compare a few with the formula directly as well.
        let image = try PNG.decode(contentsOf: colourTypeFixtures + "/gray16.png")
        for (x, y) in [(0, 0), (1, 0), (5, 7), (36, 22)] {
            let v = (x * 1237 + y * 4099 + x * y * 31) % 65536
            let scaled = UInt8((Double(v) * 255 / 65535).rounded())
            #expect(image[x, y] == RGBA(scaled, scaled, scaled, 255))
        }
    }

    @Test func notAPNG() {
        for bytes: [UInt8] in [
            [], Array("GIF89a, not a png at all".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B, 0, 0],
        ] {
            let error = #expect(throws: PNGError.self) { try PNG.decode(bytes) }
            #expect(error?.kind == .notPNG)
        }
    }

    /// A file cut at any byte is an error (truncated, or malformed when the cut lands in a
    /// chunk's length field), never a crash and never a silently partial image.
    @Test func truncationAtEveryOffsetIsAnError() throws {
        for name in ["palette4-trns.png", "rgba16-interlaced.png"] {
            let bytes = try FileIO.readBytes(atPath: colourTypeFixtures + "/" + name)
            var truncatedCount = 0
            for length in 0..<bytes.count {
                do {
                    _ = try PNG.decode(Array(bytes[0..<length]))
                    Issue.record("\(name) cut to \(length) bytes decoded without error")
                } catch {
                    #expect(
                        error.kind == .truncated || error.kind == .malformed || (length == 0 && error.kind == .notPNG),
                        "\(name) cut to \(length): \(error)")
                    if error.kind == .truncated { truncatedCount += 1 }
                }
            }
            #expect(truncatedCount > bytes.count / 2)
        }
    }

    @Test func corruptedDataIsMalformed() throws {
        let original = try FileIO.readBytes(atPath: colourTypeFixtures + "/rgb8.png")
        // A wrong CRC on a critical chunk.
        let ihdr = try #require(findChunk("IHDR", in: original))
        var badCRC = original
        badCRC[ihdr.dataStart + ihdr.length] ^= 0x01
        let crcError = #expect(throws: PNGError.self) { try PNG.decode(badCRC) }
        #expect(crcError?.description == "malformed PNG: IHDR: CRC error")
        // A flipped byte inside the compressed data, with and without a matching CRC: libpng
        // inflates as it reads, so zlib (or the CRC check) finds the damage.
        let idat = try #require(findChunk("IDAT", in: original))
        var flipped = original
        flipped[idat.dataStart + 5] ^= 0x40
        let dataError = #expect(throws: PNGError.self) { try PNG.decode(flipped) }
        #expect(dataError?.kind == .malformed)
        fixCRC(&flipped, chunkAt: idat.start)
        let zlibError = #expect(throws: PNGError.self) { try PNG.decode(flipped) }
        #expect(zlibError?.kind == .malformed)
    }

    @Test func invalidHeaderIsMalformedWithTheReason() throws {
        var bytes = try FileIO.readBytes(atPath: colourTypeFixtures + "/rgb8.png")
        let ihdr = try #require(findChunk("IHDR", in: bytes))
        bytes.replaceSubrange(ihdr.dataStart..<ihdr.dataStart + 4, with: [0, 0, 0, 0])  // width 0
        fixCRC(&bytes, chunkAt: ihdr.start)
        let error = #expect(throws: PNGError.self) { try PNG.decode(bytes) }
        #expect(error?.kind == .malformed)
        #expect(error?.description.contains("width") == true, "\(String(describing: error))")
    }

    /// A header that promises a huge image is refused before any pixel memory is taken.
    @Test func hugeDimensionsAreRefused() throws {
        var bytes = try FileIO.readBytes(atPath: colourTypeFixtures + "/rgb8.png")
        let ihdr = try #require(findChunk("IHDR", in: bytes))
        // 60000 x 60000
        bytes.replaceSubrange(ihdr.dataStart..<ihdr.dataStart + 8, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        fixCRC(&bytes, chunkAt: ihdr.start)
        #expect(throws: PNGError(.tooLarge, "60000x60000 is more than the limit of 100 megapixels")) {
            try PNG.decode(bytes)
        }
        let small = try FileIO.readBytes(atPath: colourTypeFixtures + "/rgb8.png")
        let error = #expect(throws: PNGError.self) { try PNG.decode(small, maxPixels: 100) }
        #expect(error?.kind == .tooLarge)
    }

    @Test func fileErrorsNameThePath() {
        let path = Repository.root + "/Fixtures/png/no-such-file.png"
        #expect(throws: PNGError(.unreadable, "No such file or directory", path: path)) {
            try PNG.decode(contentsOf: path)
        }
        #expect(
            PNGError(.unreadable, "No such file or directory", path: path).description
                == "\(path): cannot read: No such file or directory")
        let error = #expect(throws: PNGError.self) { try PNG.decode(contentsOf: Repository.root + "/Package.swift") }
        #expect(error?.description == Repository.root + "/Package.swift: not a PNG file: no PNG signature")
    }
}

/// Where a chunk starts (its length field) and where its data starts.
func findChunk(_ type: String, in png: [UInt8]) -> (start: Int, dataStart: Int, length: Int)? {
    var offset = 8
    while offset + 12 <= png.count {
        let length = Int(bigEndian32(png[offset..<offset + 4]))
        if String(decoding: png[offset + 4..<offset + 8], as: UTF8.self) == type {
            return (offset, offset + 8, length)
        }
        offset += 12 + length
    }
    return nil
}

/// Recomputes the CRC of the chunk whose length field is at `start`.
func fixCRC(_ png: inout [UInt8], chunkAt start: Int) {
    let length = Int(bigEndian32(png[start..<start + 4]))
    let crc = crc32(png[start + 4..<start + 8 + length])
    let at = start + 8 + length
    png[at] = UInt8(crc >> 24)
    png[at + 1] = UInt8((crc >> 16) & 0xFF)
    png[at + 2] = UInt8((crc >> 8) & 0xFF)
    png[at + 3] = UInt8(crc & 0xFF)
}

@Suite struct PNGDecodeMutationTests {
    /// Random single-byte damage anywhere in real files, with the chunk CRC repaired half of
    /// the time so the damage reaches libpng's parsers and zlib: every outcome must be an image
    /// of the size IHDR says or a PNGError, never a crash.
    @Test(arguments: ["gray2-interlaced.png", "palette8-trns.png", "rgba16.png", "grayalpha8-interlaced.png"])
    func damagedFilesFailCleanly(name: String) throws {
        let original = try FileIO.readBytes(atPath: colourTypeFixtures + "/" + name)
        var random = Xorshift(state: 0x5EED ^ UInt64(name.count))
        var failures = 0
        for round in 0..<400 {
            var bytes = original
            let at = 8 + Int(random.next() % UInt64(bytes.count - 8))
            bytes[at] ^= UInt8(1 + random.next() % 255)
            if round % 2 == 0, let chunk = chunkContaining(at, in: bytes) { fixCRC(&bytes, chunkAt: chunk) }
            do {
                let image = try PNG.decode(bytes, maxPixels: 1 << 22)
                let header = try PNG.header(of: bytes)
                #expect(image.width == header.width && image.height == header.height)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 100)  // most damage is detected
    }

    /// The start of the chunk whose type or data holds byte `index`, if any.
    private func chunkContaining(_ index: Int, in png: [UInt8]) -> Int? {
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(bigEndian32(png[offset..<offset + 4]))
            guard length < png.count else { return nil }
            if index >= offset + 4 && index < offset + 8 + length {
                return offset + 8 + length + 4 <= png.count ? offset : nil
            }
            offset += 12 + length
        }
        return nil
    }
}
