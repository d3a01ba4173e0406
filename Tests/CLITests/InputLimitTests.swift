import Foundation
import TestSupport
import Testing

/// Inputs that used to block forever or grow memory until killed (issue 11, items 8 and 9):
/// each now ends at once with one error line, in bounded memory (docs/limits.md).
@Suite struct InputLimitTests {
    /// Peak memory allowed for a refused input: meridian itself takes about 30 MB.
    static let boundedKiB = 100 << 10

    private func expectRefused(
        _ run: BoundedRun, status: Int32 = 1, line: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!run.timedOut, "still running after \(BoundedRun.seconds) s", sourceLocation: sourceLocation)
        #expect(run.status == status, "exit status \(run.status): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr == line + "\n", sourceLocation: sourceLocation)
        #expect(
            run.peakKiB > 0 && run.peakKiB < Self.boundedKiB, "peak \(run.peakKiB) KiB", sourceLocation: sourceLocation)
    }

    private func sparseFile(_ url: URL, size: Int, then tail: String = "") throws {
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        #expect(truncate(url.path, off_t(size)) == 0)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(tail.utf8))
        try handle.close()
    }

    /// A small file whose IHDR claims 20000 x 20000 (real 1-bit data, inflating to 1.6 GB of
    /// RGBA) made `diff` take 1.6 GB. Written by Python's zlib, independently of libpng.
    @Test func diffRefusesAPNGClaimingAHugeImage() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let script = """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
            side = 20000
            row = b'\\0' + b'\\x55' * (side // 8)
            z = zlib.compressobj(9)
            data = b''.join(z.compress(row) for _ in range(side)) + z.flush()
            sys.stdout.buffer.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 1, 0, 0, 0, 0))
                                    + chunk(b'IDAT', data) + chunk(b'IEND', b''))
            """
        try python(script, in: directory, output: directory.appendingPathComponent("huge.png"))
        let run = try BoundedRun.run(["diff", "huge.png", Repository.fixture("golden/nyc.png")], directory: directory)
        expectRefused(
            run, status: 2,
            line: "meridian diff: huge.png: PNG too large: 20000x20000 is more than the limit of 100 megapixels")
    }

    /// A valid 1 x 1 PNG carrying a 300 MB tEXt chunk (zeros, stored sparse): `diff` held the
    /// file and then libpng the chunk, 639 MB. Files are now read as libpng asks and text
    /// chunks skipped unread (fuzzing found a 100-byte file whose zTXt claimed 1.2 GB, which
    /// libpng allocated: Fuzz/seeds/png/oom-ztxt-claims-1.2GB.png).
    @Test func diffDoesNotHoldABigChunk() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        try python(
            """
            import struct, zlib
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
            size = 300 << 20
            with open('text.png', 'wb') as f:
                f.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 1, 1, 8, 0, 0, 0, 0)))
                f.write(struct.pack('>I', size) + b'tEXt')
                f.seek(size, 1)
                crc = zlib.crc32(b'tEXt')
                for _ in range(size >> 20):
                    crc = zlib.crc32(bytes(1 << 20), crc)
                f.write(struct.pack('>I', crc) + chunk(b'IDAT', zlib.compress(b'\\x00\\x80')) + chunk(b'IEND', b''))
            """, in: directory)
        let run = try BoundedRun.run(["diff", "text.png", "text.png"], directory: directory)
        #expect(!run.timedOut && run.status == 0, "\(run.status): \(run.stderr)")
        #expect(run.stdout.hasPrefix("0 of 1 pixels differ"))
        #expect(run.peakKiB > 0 && run.peakKiB < Self.boundedKiB, "peak \(run.peakKiB) KiB")
    }

    /// Runs a Python script (the independent writer of test files) in `directory`.
    private func python(_ script: String, in directory: URL, output: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        if let output {
            #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
            process.standardOutput = try FileHandle(forWritingTo: output)
        }
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 failed")
    }

    /// `diff /dev/zero a.png` read zeros until killed; a FIFO blocked it forever.
    @Test func diffReadsRegularFilesOnly() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let golden = Repository.fixture("golden/nyc.png")
        expectRefused(
            try BoundedRun.run(["diff", "/dev/zero", golden], directory: directory), status: 2,
            line: "meridian diff: /dev/zero: cannot read: is a character device, not a regular file")
        #expect(mkfifo(directory.appendingPathComponent("pipe.png").path, 0o600) == 0)
        expectRefused(
            try BoundedRun.run(["diff", golden, "pipe.png"], directory: directory), status: 2,
            line: "meridian diff: pipe.png: cannot read: is a FIFO (named pipe), not a regular file")
        #expect(mkfifo(directory.appendingPathComponent("pipe.mbtiles").path, 0o600) == 0)
        #expect(
            FileManager.default.createFile(atPath: directory.appendingPathComponent("b.mbtiles").path, contents: nil))
        expectRefused(
            try BoundedRun.run(["diff", "pipe.mbtiles", "b.mbtiles"], directory: directory), status: 2,
            line: "meridian diff: pipe.mbtiles: is a FIFO (named pipe), not a regular file")
    }

    @Test func mergeReadsRegularFilesOnly() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        #expect(mkfifo(directory.appendingPathComponent("shard.mbtiles").path, 0o600) == 0)
        expectRefused(
            try BoundedRun.run(["merge", "shard.mbtiles", "-o", "all.mbtiles"], directory: directory),
            line: "meridian merge: shard.mbtiles: is a FIFO (named pipe), not a regular file")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("all.mbtiles").path))
    }

    /// A 1 GB sparse file given as a map document took 2.1 GB before failing on its first byte.
    @Test func renderRefusesAHugeDocumentUnread() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        try sparseFile(directory.appendingPathComponent("big.json"), size: 1 << 30)
        let view = ["--bbox", "0,0,1,1", "--size", "10x10", "-o", "out.png"]
        expectRefused(
            try BoundedRun.run(["render", "big.json"] + view, directory: directory),
            line: "meridian render: big.json: is 1073741824 bytes, more than the limit of 16 MiB")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["big.json"])
    }

    /// A FIFO as a font, a map document or a GeoJSON source blocked `render` forever.
    @Test func renderReadsRegularFilesOnly() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        for name in ["font.ttf", "map.json", "data.geojson"] {
            #expect(mkfifo(directory.appendingPathComponent(name).path, 0o600) == 0)
        }
        let view = ["--bbox", "0,0,1,1", "--size", "10x10", "-o", "out.png"]
        try #"{"fonts": ["font.ttf"], "layers": []}"#.write(
            to: directory.appendingPathComponent("fonts.json"), atomically: true, encoding: .utf8)
        expectRefused(
            try BoundedRun.run(["render", "fonts.json"] + view, directory: directory),
            line:
                "meridian render: fonts.json: fonts[0]: \"./font.ttf\" is a FIFO (named pipe), not a font file or folder"
        )
        expectRefused(
            try BoundedRun.run(["render", "map.json"] + view, directory: directory),
            line: "meridian render: map.json: is a FIFO (named pipe), not a regular file")
        try #"{"layers": [{"name": "a", "source": "data.geojson", "line": {"color": "red"}}]}"#.write(
            to: directory.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        expectRefused(
            try BoundedRun.run(["render", "data.json"] + view, directory: directory),
            line: "meridian render: ./data.geojson: is a FIFO (named pipe), not a regular file")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.png").path))
    }

    /// `coord < /dev/zero` grew until killed: 100 MB without a newline is now one error line,
    /// and the position after it is still converted (GeoConvert's answer, Fixtures/geodesy).
    @Test func coordCapsTheLineLength() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let vectors = try String(contentsOfFile: Repository.fixture("geodesy/dd-mgrs.tsv"), encoding: .utf8)
        let row = try #require(vectors.split(separator: "\n").first).split(separator: "\t").map(String.init)
        let input = directory.appendingPathComponent("in")
        try sparseFile(input, size: 100 << 20, then: "\n\(row[0])\n")
        let run = try BoundedRun.run(["coord", "--to", "mgrs"], stdin: input.path, directory: directory)
        #expect(!run.timedOut)
        #expect(run.status == 1)
        #expect(run.stdout == "ERROR: line longer than 4096 bytes\n\(row[7])\n")
        #expect(run.stderr == "")
        #expect(run.peakKiB > 0 && run.peakKiB < Self.boundedKiB, "peak \(run.peakKiB) KiB")
    }
}
