import Foundation
import TestSupport
import Testing

/// A tile job killed with SIGKILL at several moments and resumed each time ends with output
/// byte-identical to an uninterrupted run, no temporary files, and (MBTiles) a valid
/// in-progress file at every step, while the target stays the old complete file until the
/// job completes.
@Suite(.serialized) struct TilesResumeTests {
    let world = Repository.fixture("maps/world.json")
    /// How many resumed runs are killed once they have stored more tiles than before.
    let progressKills = 3

    /// A directory shows each tile as it is written; an MBTiles file only at a commit (every
    /// 2,000 tiles or 2 s), so its job is zoom 0-7 (21,845 tiles): ten commits happen mid-job
    /// by count, however fast the machine. (At zoom 0-6, 5,461 tiles, only two did: a resumed
    /// run could finish between its one commit and the kill.)
    func arguments(_ output: String) -> [String] {
        let zoom = output.hasSuffix(".mbtiles") ? "0-7" : "0-5"
        return ["tiles", world, "--zoom", zoom, "--workers", "2", "--metatile", "4", "-o", output, "--quiet"]
    }

    /// Runs the job and kills it as soon as the output holds more tiles than before (`stored`
    /// counts them), then resumes it and does the same `progressKills` times, so the kills land
    /// mid-job whatever the speed of the machine. It waits on the file system (`watch` reports
    /// each change under the output's folder), never on a clock. Calls `check` after each kill
    /// and ends with a resumed run to completion.
    func killAndResume(
        _ output: String, watch: FileSystemWatch, stored: () throws -> Int,
        check: () throws -> Void
    ) throws -> (kills: Int, final: ToolRun) {
        var kills = 0
        for attempt in 0...progressKills {
            let before = try stored()
            let job = try Meridian.start(arguments(output) + (attempt == 0 ? [] : ["--resume"]))
            _ = try watch.wait(for: job) { try stored() > before }
            guard job.kill() else {
                // It finished first (a fast machine): the output is complete, not interrupted.
                #expect(job.waitUntilExit() == 0, "\(job.arguments) failed: \(job.stderr)")
                break
            }
            kills += 1
            try check()
        }
        let last = try Meridian.run(arguments(output) + ["--resume"])
        return (kills, last)
    }

    @Test func directory() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let reference = directory.path + "/reference"
        let resumed = directory.path + "/resumed"
        #expect(try Meridian.run(arguments(reference)).status == 0)
        // Tiles under their own names (the staging folder holds tiles being written).
        let stored = {
            try FileTree.livePaths(under: resumed).filter { $0.hasSuffix(".png") && $0.first!.isNumber }.count
        }
        let result = try killAndResume(resumed, watch: try FileSystemWatch(directory.path), stored: stored) {
            // Whatever is there under a tile's name is a whole tile.
            for (name, bytes) in try FileTree.tiles(under: resumed) {
                #expect(
                    bytes.count > 8 && bytes.suffix(8) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82],
                    "\(name) is cut short")
            }
            // An interrupted pyramid says it is incomplete.
            #expect(FileManager.default.fileExists(atPath: resumed + "/.meridian-incomplete"))
        }
        #expect(result.kills >= 3, "the job ended before it could be killed: make it longer")
        #expect(result.final.status == 0, "\(result.final.stderr)")
        let expected = try FileTree.files(under: reference)
        let actual = try FileTree.files(under: resumed)
        #expect(try FileTree.tiles(under: reference).count == 1365)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        let differing = expected.keys.filter { expected[$0] != actual[$0] }
        #expect(differing.isEmpty, "\(differing.count) files differ")
        // No temporary files or folders are left, and the pyramid no longer says it is incomplete.
        #expect(
            try !FileTree.paths(under: resumed).contains {
                $0.contains(".meridian-tmp") || $0.hasSuffix(".tmp") || $0.contains(".meridian-incomplete")
            })
    }

    @Test func mbtiles() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let reference = directory.path + "/reference.mbtiles"
        let resumed = directory.path + "/resumed.mbtiles"
        let partial = resumed + ".partial"
        #expect(try Meridian.run(arguments(reference)).status == 0)
        // An older complete file at the target, from another job: it stays as it is until the
        // new file is complete.
        let old = ["tiles", world, "--zoom", "0-1", "-o", resumed, "--quiet"]
        #expect(try Meridian.run(old).status == 0)
        let oldContent = try SQLiteShell.content(resumed)
        var counts: [Int] = []
        let stored = { () throws -> Int in
            guard FileManager.default.fileExists(atPath: partial) else { return 0 }
            let count = try SQLiteShell.run(partial, "SELECT count(*) FROM tiles")
            // A job that is creating the file has no tiles table yet, and holds the file locked
            // while it changes journal mode: nothing is committed to count then.
            if count.status != 0
                && (count.stderr.contains("no such table: tiles") || count.stderr.contains("database is locked"))
            {
                return 0
            }
            guard let tiles = Int(try count.succeeded().stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw ToolFailure(count, unusable: "printed no count")
            }
            return tiles
        }
        let result = try killAndResume(resumed, watch: try FileSystemWatch(directory.path), stored: stored) {
            guard FileManager.default.fileExists(atPath: partial) else { return }
            // The target is the old file, or, killed in the instant between renaming the
            // finished copy into place and deleting the in-progress file, the complete new one.
            let content = try SQLiteShell.content(resumed)
            if content != oldContent {
                #expect(try SQLiteShell.query(resumed, "SELECT count(*) FROM tiles") == "21845")
            }
            #expect(try SQLiteShell.query(partial, "PRAGMA integrity_check") == "ok")
            counts.append(Int(try SQLiteShell.query(partial, "SELECT count(*) FROM tiles")) ?? -1)
        }
        // Kills after the first two commits at least (each leaves a partial file, below); a
        // resumed run with fewer than 2,000 tiles left may finish before it commits.
        #expect(result.kills >= 2, "the job ended before it could be killed: make it longer")
        #expect(result.final.status == 0, "\(result.final.stderr)")
        #expect(counts.contains { $0 > 0 && $0 < 21845 }, "no kill left a partial file: \(counts)")
        #expect(try SQLiteShell.query(resumed, "PRAGMA integrity_check") == "ok")
        #expect(try SQLiteShell.query(resumed, "SELECT count(*) FROM tiles") == "21845")
        #expect(try SQLiteShell.content(resumed) == (try SQLiteShell.content(reference)))
        let same =
            try Data(contentsOf: URL(fileURLWithPath: resumed)) == Data(contentsOf: URL(fileURLWithPath: reference))
        #expect(same, "the resumed file's bytes differ from the uninterrupted job's")
        // One self-contained file: no journal, log or temporary beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["reference.mbtiles", "resumed.mbtiles"])
    }

    /// Killed between creating the file and committing its schema, a job leaves an empty
    /// database; --resume starts it over rather than refusing it.
    @Test func anEmptyDatabaseResumes() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let output = directory.path + "/empty.mbtiles"
        #expect(FileManager.default.createFile(atPath: output + ".partial", contents: Data()))
        let run = try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", output, "--quiet", "--resume"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try SQLiteShell.query(output, "SELECT count(*) FROM tiles") == "21")
        // A database that holds something else is still refused.
        let other = directory.path + "/other.mbtiles"
        _ = try SQLiteShell.query(other + ".partial", "CREATE TABLE notes (text TEXT)")
        let refused = try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", other, "--quiet", "--resume"])
        #expect(refused.status != 0 && refused.stderr.contains("is not an MBTiles file"))
    }
}
