import Foundation
import TestSupport
import Testing

@testable import Tiles

/// `ContentHash` is XXH3-128: its hex form must be what xxHash's own command-line tool,
/// `xxhsum -H2`, prints for the same bytes (written by this test, one file per sample).
@Suite struct ContentHashTests {
    /// Samples of every length class XXH3 treats apart (0, 1-3, 4-8, 9-16, 17-128, 129-240,
    /// over 240 bytes, and many stripes), with bytes that are not all alike.
    static func samples() -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        let lengths = [0, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 1024, 4097, 100_000]
        return [Array("abc".utf8)]
            + lengths.map { length in (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } }
    }

    /// Runs `xxhsum -H2` on `files` and returns the hex digest of each, in order.
    static func xxhsum(_ files: [String]) throws -> [String] {
        try Tool.output("xxhsum", ["-H2"] + files).split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    }

    @Test func matchesXXHSum() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let samples = Self.samples()
        var files: [String] = []
        for (index, bytes) in samples.enumerated() {
            let file = folder.appendingPathComponent("\(index).bin")
            try Data(bytes).write(to: file)
            files.append(file.path)
        }
        let expected = try Self.xxhsum(files)
        #expect(expected.count == samples.count)
        for (bytes, digest) in zip(samples, expected) {
            #expect(digest.count == 32)
            #expect(ContentHash(of: bytes).hex == digest, "\(bytes.count) bytes")
            #expect(bytes.withUnsafeBytes { ContentHash(of: $0) } == ContentHash(of: bytes))
        }
    }
}
