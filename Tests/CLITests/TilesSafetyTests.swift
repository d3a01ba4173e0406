import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 11, items 1-4 and 10: outputs are never destroyed or left half-written, a second
/// writer is refused, a signal stops a job cleanly, outputs are checked before any work, and
/// exit statuses follow one table.
@Suite(.serialized) struct TilesSafetyTests {
    let world = Repository.fixture("maps/world.json")

    func job(_ output: String, zoom: String = "0-5", _ extra: [String] = []) -> [String] {
        ["tiles", world, "--zoom", zoom, "--workers", "2", "--metatile", "4", "-o", output, "--quiet"] + extra
    }

    /// The number of tiles in an MBTiles file, by Debian's sqlite3.
    func tileCount(_ path: String) throws -> Int {
        Int(try SQLiteShell.query(path, "SELECT count(*) FROM tiles")) ?? -1
    }

    /// The tiles a running job has committed to the in-progress file of `output` (a reader
    /// sees them once committed: every 2,000 tiles or 2 s); 0 while it has no tiles table yet.
    func committedTiles(_ output: String) throws -> Int {
        let partial = output + ".partial"
        guard FileManager.default.fileExists(atPath: partial) else { return 0 }
        let count = try SQLiteShell.run(partial, "SELECT count(*) FROM tiles")
        if count.status != 0
            && (count.stderr.contains("no such table: tiles") || count.stderr.contains("database is locked"))
        {
            return 0
        }
        return Int(try count.succeeded().stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// "stopped at 2,310 of 5,461 tiles; --resume continues" -> (2310, 5461).
    func stoppedAt(_ stderr: String) -> (done: Int, total: Int)? {
        guard let line = stderr.split(separator: "\n").last, line.hasPrefix("meridian tiles: stopped at "),
            line.hasSuffix(" tiles; --resume continues")
        else { return nil }
        let words = line.split(separator: " ").map { $0.replacingOccurrences(of: ",", with: "") }
        guard words.count == 10, let done = Int(words[4]), let total = Int(words[6]) else { return nil }
        return (done, total)
    }

    // MARK: 1. A directory where a file is expected is refused, never replaced.

    @Test func aDirectoryNamedLikeTheOutputIsRefusedAndKept() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        for name in ["keep.mbtiles", "keep.mbtiles.partial-journal", "keep.pmtiles"] {
            let directory = folder.path + "/" + name
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try Data("precious".utf8).write(to: URL(fileURLWithPath: directory + "/inside.txt"))
            let output = folder.path + "/" + (name.hasPrefix("keep.mbtiles") ? "keep.mbtiles" : name)
            let run = try Meridian.run(job(output, zoom: "0-1"))
            #expect(run.status == 1, "\(name): \(run.stderr)")
            #expect(run.stderr.contains("\(directory): it is a directory"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(try String(contentsOfFile: directory + "/inside.txt", encoding: .utf8) == "precious")
            try FileManager.default.removeItem(atPath: directory)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "left behind")
        }
    }

    // MARK: 2. The target is the old complete file or the new one; a failed pyramid says so.

    /// A directory job that fails part-way (zoom 3's folder cannot be made: a file is in the
    /// way) leaves the incomplete marker, and its error line says how to complete it.
    @Test func aFailedPyramidIsMarkedAndSaysHowToResume() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.path + "/tiles"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: false)
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: output + "/3"))
        // One worker: metatiles finish in order, so zooms 0-2 are all written before zoom 3
        // fails (with several, a zoom 3 failure can stop the job before the last zoom 2 tile).
        let run = try Meridian.run(
            ["tiles", world, "--zoom", "0-3", "--workers", "1", "--metatile", "4", "-o", output, "--quiet"])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(
            run.stderr.hasSuffix(
                "; \(output) is incomplete (.meridian-incomplete): run the same command with --resume to complete it\n"),
            "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: output + "/.meridian-incomplete"))
        #expect(!FileManager.default.fileExists(atPath: output + "/.meridian-tmp"))
        #expect(try FileTree.tiles(under: output).count == 21)  // zooms 0-2 were written

        try FileManager.default.removeItem(atPath: output + "/3")
        let resumed = try Meridian.run(job(output, zoom: "0-3", ["--resume"]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try FileTree.tiles(under: output).count == 85)
        #expect(!FileManager.default.fileExists(atPath: output + "/.meridian-incomplete"))
    }

    /// Without --resume an existing complete file stays as it is until the new one is
    /// complete: a job stopped part-way leaves it untouched (the kill tests in
    /// TilesResumeTests check the same after SIGKILL).
    @Test func anInterruptedJobLeavesTheOldFileWhole() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.path + "/world.mbtiles"
        #expect(try Meridian.run(job(output, zoom: "0-2")).status == 0)
        let before = try SQLiteShell.content(output)
        let running = try Meridian.start(job(output, zoom: "0-6"))
        let progressed = try FileSystemWatch(folder.path).wait(for: running) { try committedTiles(output) > 0 }
        try #require(progressed, "the job ended before it could be stopped: \(running.stderr)")
        #expect(running.stop(with: SIGTERM) == 143, "\(running.stderr)")
        #expect(try SQLiteShell.content(output) == before)
        #expect(try tileCount(output) == 21)
    }

    // MARK: 3. One writer at a time; readers do not make a job fail.

    @Test func aSecondWriterIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        for output in [folder.path + "/busy.mbtiles", folder.path + "/busy.pmtiles", folder.path + "/busy"] {
            let first = try Meridian.start(job(output, zoom: "0-6"))
            // The first job holds its lock once its in-progress file or staging folder exists.
            let started =
                output.hasSuffix("tiles") ? output + ".partial" : output + "/.meridian-incomplete"
            let seen = try FileSystemWatch(folder.path).wait(for: first) {
                FileManager.default.fileExists(atPath: started)
            }
            try #require(seen, "the first job ended before it started writing: \(first.stderr)")
            let second = try Meridian.run(job(output, zoom: "0-6"))
            #expect(second.status == 1)
            #expect(
                second.stderr
                    == "meridian tiles: \(output): another meridian job is writing it (it holds the lock): wait for that job to end, or stop it\n"
            )
            #expect(first.stop(with: SIGTERM) == 143, "\(first.stderr)")
        }
    }

    /// A reader holding the old file open while a job replaces it: the job succeeds and the
    /// reader keeps reading the file it opened.
    @Test func aReaderDoesNotMakeTheJobFail() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.path + "/read.mbtiles"
        #expect(try Meridian.run(job(output, zoom: "0-1")).status == 0)
        // sqlite3 in a read transaction, kept open on its standard input.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        reader.arguments = ["-batch", output]
        let input = Pipe()
        let answers = Pipe()
        reader.standardInput = input
        reader.standardOutput = answers
        try reader.run()
        input.fileHandleForWriting.write(Data("BEGIN; SELECT count(*) FROM tiles;\n".utf8))
        var seen = Data()
        while !seen.contains(UInt8(ascii: "\n")) {
            let chunk = answers.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "sqlite3 ended")
            seen += chunk
        }
        #expect(String(decoding: seen, as: UTF8.self) == "5\n")

        let run = try Meridian.run(job(output, zoom: "0-2"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try tileCount(output) == 21)
        // The reader, still in its transaction, sees the file it opened.
        input.fileHandleForWriting.write(Data("SELECT count(*) FROM tiles; COMMIT;\n".utf8))
        try input.fileHandleForWriting.close()
        let rest = String(decoding: answers.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(rest == "5\n" && reader.terminationStatus == 0)
    }

    // MARK: 4. SIGTERM and SIGINT stop cleanly.

    /// Each kind of output, stopped by a signal after observed progress: exit 128 + the
    /// signal, one line saying how far the job got (which matches what was kept), no
    /// temporary files; --resume then gives what an uninterrupted job gives.
    @Test(arguments: [("dir", SIGTERM), ("stop.mbtiles", SIGINT), ("stop.pmtiles", SIGTERM)])
    func aSignalStopsTheJobCleanly(name: String, signal: Int32) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.path + "/" + name
        let isDirectory = !name.contains(".")
        let partial = output + ".partial"
        // Zoom 0-6: its 5,461 tiles run past the first commit (2,000 tiles) on any machine; the
        // 1,365 of zoom 0-5 can all be done within the first 2 s, before any commit is seen.
        let running = try Meridian.start(job(output, zoom: "0-6"))
        let progressed = try FileSystemWatch(folder.path).wait(for: running) {
            if isDirectory { return try FileTree.livePaths(under: output).contains { $0.hasSuffix(".png") } }
            return try committedTiles(output) > 0
        }
        try #require(progressed, "the job ended before it could be stopped: \(running.stderr)")
        let status = running.stop(with: signal)
        #expect(status == 128 + signal, "\(running.stderr)")
        let stopped = try #require(stoppedAt(running.stderr), "\(running.stderr)")
        #expect(stopped.total == 5461 && stopped.done > 0 && stopped.done < 5461)
        if isDirectory {
            #expect(try FileTree.tiles(under: output).count == stopped.done)
            #expect(FileManager.default.fileExists(atPath: output + "/.meridian-incomplete"))
            #expect(
                try !FileTree.paths(under: output).contains { $0.contains(".meridian-tmp") || $0.hasSuffix(".tmp") })
        } else {
            #expect(try tileCount(partial) == stopped.done)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [name + ".partial"])
        }

        let resumed = try Meridian.run(job(output, zoom: "0-6", ["--resume"]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let reference = folder.path + "/reference" + (isDirectory ? "" : "." + name.split(separator: ".")[1])
        #expect(try Meridian.run(job(reference, zoom: "0-6")).status == 0)
        if isDirectory {
            #expect(try FileTree.files(under: output) == FileTree.files(under: reference))
        } else if name.hasSuffix(".mbtiles") {
            #expect(try SQLiteShell.content(output) == SQLiteShell.content(reference))
            let same =
                try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: reference))
            #expect(same, "the resumed file's bytes differ from the uninterrupted job's")
        } else {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: reference)))
        }
        #expect(!FileManager.default.fileExists(atPath: partial))
    }

    // MARK: 10. Outputs checked first; one table of exit statuses.

    @Test func anUnwritableSummaryIsFoundBeforeTheWork() throws {
        try TilesCommandTests().expectRejected(
            ["tiles", world, "--zoom", "0-2", "-o", "DIR/out", "--summary-json", "DIR/missing/s.json"],
            mentions: "--summary-json: cannot write",
            status: 1)
    }

    /// An inverted bbox is a usage error (2) in every command that takes one.
    @Test func anInvertedBBoxIsAUsageErrorEverywhere() throws {
        let inverted = ["--bbox", "10,0,5,5"]
        try TilesCommandTests().expectRejected(
            ["tiles", world, "--zoom", "3", "-o", "DIR/t"] + inverted, mentions: "is empty")
        try TilesCommandTests().expectRejected(
            ["render", world, "--size", "100x100", "-o", "DIR/a.png"] + inverted, mentions: "is empty")
        try TilesCommandTests().expectRejected(
            ["grid", "--type", "utm", "--size", "100x100", "-o", "DIR/a.geojson"] + inverted, mentions: "is empty")
        try TilesCommandTests().expectRejected(["sheet", world, "-o", "DIR/a.pdf"] + inverted, mentions: "is empty")
    }

    /// `merge` refuses inputs whose tiles differ in size or format: one tile set cannot hold both.
    @Test func mergeRefusesMixedTiles() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let d = folder.path
        #expect(try Meridian.run(job(d + "/a.mbtiles", zoom: "0-1")).status == 0)
        #expect(try Meridian.run(job(d + "/big.mbtiles", zoom: "2", ["--tile-size", "512"])).status == 0)
        #expect(try Meridian.run(job(d + "/webp.mbtiles", zoom: "2", ["--format", "webp"])).status == 0)
        for (other, problem) in [
            (
                "big.mbtiles",
                "tile-size=512 scale=1) differ from those of \(d)/a.mbtiles (format 'png', tile-size=256 scale=1)"
            ),
            ("webp.mbtiles", "format 'webp', tile-size=256 scale=1) differ from those of \(d)/a.mbtiles"),
        ] {
            let run = try Meridian.run(["merge", d + "/a.mbtiles", d + "/" + other, "-o", d + "/all.mbtiles"])
            #expect(run.status == 1)
            #expect(
                run.stderr.hasPrefix("meridian merge: \(d)/\(other): its tiles (") && run.stderr.contains(problem),
                "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: d + "/all.mbtiles"))
        }
    }
}
