import Foundation
import Testing

/// A tile job killed with SIGKILL at several moments and resumed each time ends with output
/// byte-identical to an uninterrupted run, no temporary files, and (MBTiles) a valid file
/// at every step. For MBTiles "output" is what a reader sees: every tile's bytes and the
/// metadata (the SQLite pages themselves may be laid out differently).
@Suite(.serialized) struct TilesResumeTests {
    let world = Meridian.fixture("maps/world.json")
    /// Seconds after the start of each run at which it is killed: during start-up, early, mid-run.
    let killAfter = [0.15, 0.6, 1.5, 2.5]

    func arguments(_ output: String) -> [String] {
        ["tiles", world, "--zoom", "0-5", "--workers", "2", "--metatile", "4", "-o", output, "--quiet"]
    }

    /// Runs the job, killing it after each delay in turn; every run after the first resumes.
    /// Calls `check` after each kill. Ends with a resumed run to completion.
    func killAndResume(_ output: String, check: () throws -> Void) throws -> (kills: Int, finalStatus: Int32) {
        var kills = 0
        for (index, delay) in killAfter.enumerated() {
            let process = try TilesFixture.start(arguments(output) + (index > 0 ? ["--resume"] : []))
            Thread.sleep(forTimeInterval: delay)
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            try check()
        }
        let last = try Meridian.run(arguments(output) + ["--resume"])
        return (kills, last.status)
    }

    @Test func directory() throws {
        let directory = try Meridian.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = directory.path + "/reference", resumed = directory.path + "/resumed"
        #expect(try Meridian.run(arguments(reference)).status == 0)
        let result = try killAndResume(resumed) {
            // Whatever is there under a tile's name is a whole tile.
            for (name, bytes) in try TilesFixture.files(under: resumed) where !name.hasPrefix(".meridian-tmp") {
                #expect(bytes.count > 8 && bytes.suffix(8) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82], "\(name) is cut short")
            }
        }
        #expect(result.kills >= 2, "the job ended before it could be killed: make it longer")
        #expect(result.finalStatus == 0)
        let expected = try TilesFixture.files(under: reference), actual = try TilesFixture.files(under: resumed)
        #expect(expected.count == 1365)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        let differing = expected.keys.filter { expected[$0] != actual[$0] }
        #expect(differing.isEmpty, "\(differing.count) tiles differ")
        // No temporary files or folders are left.
        #expect(!TilesFixture.entries(under: resumed).contains { $0.contains(".meridian-tmp") || $0.hasSuffix(".tmp") })
    }

    @Test func mbtiles() throws {
        let directory = try Meridian.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = directory.path + "/reference.mbtiles", resumed = directory.path + "/resumed.mbtiles"
        #expect(try Meridian.run(arguments(reference)).status == 0)
        var counts: [Int] = []
        let result = try killAndResume(resumed) {
            guard FileManager.default.fileExists(atPath: resumed) else { return }
            #expect(try TilesFixture.sqlite(resumed, "PRAGMA integrity_check") == "ok")
            counts.append(Int(try TilesFixture.sqlite(resumed, "SELECT count(*) FROM tiles")) ?? -1)
        }
        #expect(result.kills >= 2, "the job ended before it could be killed: make it longer")
        #expect(result.finalStatus == 0)
        #expect(counts.contains { $0 > 0 && $0 < 1365 }, "no kill left a partial file: \(counts)")
        #expect(try TilesFixture.sqlite(resumed, "PRAGMA integrity_check") == "ok")
        #expect(try TilesFixture.sqlite(resumed, "SELECT count(*) FROM tiles") == "1365")
        #expect(try TilesFixture.content(resumed) == (try TilesFixture.content(reference)))
        // One self-contained file: no journal, log or temporary beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["reference.mbtiles", "resumed.mbtiles"])
    }
}
