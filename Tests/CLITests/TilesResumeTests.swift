import Foundation
import Testing

/// A tile job killed with SIGKILL at several moments and resumed each time ends with output
/// byte-identical to an uninterrupted run, no temporary files, and (MBTiles) a valid file
/// at every step. For MBTiles "output" is what a reader sees: every tile's bytes and the
/// metadata (the SQLite pages themselves may be laid out differently).
@Suite(.serialized) struct TilesResumeTests {
    let world = Meridian.fixture("maps/world.json")
    /// How many resumed runs are killed once they have stored more tiles than before.
    let progressKills = 3

    /// A directory shows each tile as it is written; an MBTiles file only at a commit (every
    /// 2,000 tiles or 2 s), so its job is zoom 0-6 (5,461 tiles): commits happen mid-job by
    /// count, however fast the machine.
    func arguments(_ output: String) -> [String] {
        let zoom = output.hasSuffix(".mbtiles") ? "0-6" : "0-5"
        return ["tiles", world, "--zoom", zoom, "--workers", "2", "--metatile", "4", "-o", output, "--quiet"]
    }

    /// Runs the job and kills it: first during start-up (after 0.15 s), then in each resumed
    /// run as soon as the output holds more tiles than before (`stored` counts them), so the
    /// kills land mid-job whatever the speed of the machine. Calls `check` after each kill and
    /// ends with a resumed run to completion.
    func killAndResume(
        _ output: String, stored: () throws -> Int,
        check: () throws -> Void
    ) throws -> (kills: Int, finalStatus: Int32) {
        var kills = 0
        func killed(_ process: Process) -> Bool {
            guard process.isRunning else { return false }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return true
        }
        let first = try TilesFixture.start(arguments(output))
        Thread.sleep(forTimeInterval: 0.15)
        if killed(first) { kills += 1 }
        first.waitUntilExit()
        try check()
        for _ in 0..<progressKills {
            let before = try stored()
            let process = try TilesFixture.start(arguments(output) + ["--resume"])
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, try stored() <= before, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            if killed(process) { kills += 1 }
            process.waitUntilExit()
            try check()
        }
        let last = try Meridian.run(arguments(output) + ["--resume"])
        return (kills, last.status)
    }

    @Test func directory() throws {
        let directory = try Meridian.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = directory.path + "/reference"
        let resumed = directory.path + "/resumed"
        #expect(try Meridian.run(arguments(reference)).status == 0)
        let stored = {
            (try? TilesFixture.files(under: resumed).keys.filter { !$0.hasPrefix(".meridian-tmp") }.count) ?? 0
        }
        let result = try killAndResume(resumed, stored: stored) {
            // Whatever is there under a tile's name is a whole tile.
            for (name, bytes) in try TilesFixture.files(under: resumed) where !name.hasPrefix(".meridian-tmp") {
                #expect(
                    bytes.count > 8 && bytes.suffix(8) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82],
                    "\(name) is cut short")
            }
        }
        #expect(result.kills >= 3, "the job ended before it could be killed: make it longer")
        #expect(result.finalStatus == 0)
        let expected = try TilesFixture.files(under: reference)
        let actual = try TilesFixture.files(under: resumed)
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
        let reference = directory.path + "/reference.mbtiles"
        let resumed = directory.path + "/resumed.mbtiles"
        #expect(try Meridian.run(arguments(reference)).status == 0)
        var counts: [Int] = []
        let stored = { () -> Int in
            guard FileManager.default.fileExists(atPath: resumed) else { return 0 }
            return Int((try? TilesFixture.sqlite(resumed, "SELECT count(*) FROM tiles")) ?? "") ?? 0
        }
        let result = try killAndResume(resumed, stored: stored) {
            guard FileManager.default.fileExists(atPath: resumed) else { return }
            #expect(try TilesFixture.sqlite(resumed, "PRAGMA integrity_check") == "ok")
            counts.append(Int(try TilesFixture.sqlite(resumed, "SELECT count(*) FROM tiles")) ?? -1)
        }
        // The start-up kill and at least one kill after a commit (a partial file, below); a
        // resumed run with fewer than 2,000 tiles left may finish before it commits.
        #expect(result.kills >= 2, "the job ended before it could be killed: make it longer")
        #expect(result.finalStatus == 0)
        #expect(counts.contains { $0 > 0 && $0 < 5461 }, "no kill left a partial file: \(counts)")
        #expect(try TilesFixture.sqlite(resumed, "PRAGMA integrity_check") == "ok")
        #expect(try TilesFixture.sqlite(resumed, "SELECT count(*) FROM tiles") == "5461")
        #expect(try TilesFixture.content(resumed) == (try TilesFixture.content(reference)))
        // One self-contained file: no journal, log or temporary beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["reference.mbtiles", "resumed.mbtiles"])
    }

    /// Killed between creating the file and committing its schema, a job leaves an empty
    /// database; --resume starts it over rather than refusing it.
    @Test func anEmptyDatabaseResumes() throws {
        let directory = try Meridian.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.path + "/empty.mbtiles"
        #expect(FileManager.default.createFile(atPath: output, contents: Data()))
        let run = try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", output, "--quiet", "--resume"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try TilesFixture.sqlite(output, "SELECT count(*) FROM tiles") == "21")
        // A database that holds something else is still refused.
        let other = directory.path + "/other.mbtiles"
        _ = try TilesFixture.sqlite(other, "CREATE TABLE notes (text TEXT)")
        let refused = try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", other, "--quiet", "--resume"])
        #expect(refused.status != 0 && refused.stderr.contains("is not an MBTiles file"))
    }
}
