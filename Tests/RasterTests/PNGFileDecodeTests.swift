import Foundation
import Testing

@testable import Raster

/// Decoding from a file: regular files only, read as libpng asks (not held whole).
@Suite struct PNGFileDecodeTests {
    /// Only regular files are decoded (FIFOs and devices are refused too: CLITests, where a
    /// regression cannot hang or exhaust the test process).
    @Test func refusesFolders() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: PNGError(.unreadable, "is a folder, not a regular file", path: directory)) {
            try PNG.decode(contentsOf: directory)
        }
    }

    /// A file cut anywhere is truncated, whether the cut falls in the signature, a chunk header
    /// or the image data (reads from a file end where the file does).
    @Test func aCutFileIsTruncated() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = try FileIO.readBytes(atPath: colourTypeFixtures + "/rgb8-interlaced.png")
        let path = directory + "/cut.png"
        for length in [3, 8, 20, 33, 100, original.count / 2, original.count - 1] {
            try Data(original[0..<length]).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: PNGError.self) { try PNG.decode(contentsOf: path) }
            #expect(error?.kind == .truncated, "cut at \(length): \(String(describing: error))")
            #expect(error?.path == path)
        }
        try Data(original + [UInt8](repeating: 0, count: 100_000)).write(to: URL(fileURLWithPath: path))
        #expect(try PNG.decode(contentsOf: path) == PNG.decode(original))
    }

    /// The documented limit is 100 megapixels: 10000 x 10000 passes the check (and then fails
    /// on its short image data), 10001 x 10000 is refused from the header.
    @Test func theLimitIsOneHundredMegapixels() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.png"
        for (width, refused) in [(10_000, false), (10_001, true)] {
            var bytes = try FileIO.readBytes(atPath: colourTypeFixtures + "/rgb8.png")
            let ihdr = try #require(findChunk("IHDR", in: bytes))
            let size = [UInt32(width), 10_000].flatMap { value in
                (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
            }
            bytes.replaceSubrange(ihdr.dataStart..<ihdr.dataStart + 8, with: size)
            fixCRC(&bytes, chunkAt: ihdr.start)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: PNGError.self) { try PNG.decode(contentsOf: path) }
            #expect((error?.kind == .tooLarge) == refused, "\(width): \(String(describing: error))")
        }
    }
}
