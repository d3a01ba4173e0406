import Foundation
import Raster
import TestSupport
import Testing

/// `meridian tiles` and `meridian merge` as a user runs them.
@Suite struct TilesCommandTests {
    let world = Repository.fixture("maps/world.json")

    func expectRejected(
        _ arguments: [String], mentions expected: String, status: Int32 = 2,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let args = arguments.map { $0.replacingOccurrences(of: "DIR", with: directory.path) }
        let run = try Meridian.run(args, directory: directory)
        #expect(run.status == status, "exit status \(run.status) for \(arguments)", sourceLocation: sourceLocation)
        let lines = run.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && run.stderr.hasPrefix("meridian \(arguments[0]): "), "stderr: \(run.stderr)",
            sourceLocation: sourceLocation)
        #expect(run.stderr.contains(expected), "stderr \(run.stderr) lacks \(expected)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.isEmpty, "left behind: \(left)", sourceLocation: sourceLocation)
    }

    @Test func nonsenseIsOneClearLine() throws {
        let out = ["-o", "DIR/out"]
        try expectRejected(["tiles", world, "--zoom", "7-3"] + out, mentions: "--zoom 7-3 is empty")
        try expectRejected(["tiles", world, "--zoom", "0-25"] + out, mentions: "out of range")
        try expectRejected(["tiles", world, "--zoom", "x"] + out, mentions: "--zoom expects")
        try expectRejected(["tiles", world, "--zoom", "0-24"] + out, mentions: "narrow the zoom range or the bbox")
        try expectRejected(["tiles", world, "--zoom", "3", "--bbox", "10,0,5,5"] + out, mentions: "is empty")
        try expectRejected(
            ["tiles", world, "--zoom", "3", "--bbox", "0,86,10,89"] + out, mentions: "outside the Web Mercator map")
        try expectRejected(["tiles", world, "--zoom", "3", "--shard", "4/4"] + out, mentions: "from 0 to 3")
        try expectRejected(["tiles", world, "--zoom", "3", "--tile-size", "300"] + out, mentions: "use 256 or 512")
        try expectRejected(["tiles", world, "--zoom", "3", "--scale", "3"] + out, mentions: "use 1 or 2")
        try expectRejected(["tiles", world, "--zoom", "3", "--workers", "0"] + out, mentions: "--workers 0")
        try expectRejected(["tiles", world, "--zoom", "3", "--metatile", "128"] + out, mentions: "--metatile 128")
        try expectRejected(
            ["tiles", world, "--zoom", "3", "--metatile", "40", "--tile-size", "512", "--scale", "2"] + out,
            mentions: "use a smaller --metatile")
        try expectRejected(["tiles", world, "--zoom", "3", "--buffer", "-1"] + out, mentions: "--buffer -1")
        try expectRejected(
            ["tiles", world, "--zoom", "3", "--scheme", "tms", "-o", "DIR/a.mbtiles"],
            mentions: "--scheme is for directories")
        try expectRejected(["tiles", world, "--zoom", "3", "--bogus"] + out, mentions: "unknown option --bogus")
        try expectRejected(["tiles", world] + out, mentions: "--zoom is required")
        try expectRejected(["tiles", "DIR/missing.json", "--zoom", "1"] + out, mentions: "missing.json", status: 1)
        try expectRejected(
            ["tiles", world, "--zoom", "1", "-o", "DIR/no/such/a.mbtiles"], mentions: "does not exist", status: 1)
        try expectRejected(["merge", "DIR/a.mbtiles", "-o", "DIR/all.mbtiles"], mentions: "no such file", status: 1)
        try expectRejected(["merge", "-o", "DIR/all.mbtiles"], mentions: "give the MBTiles files")
    }

    /// Option text that is not a value of the option, and values the Tiles types refuse: the
    /// message names the option and repeats what was given.
    @Test func optionTextIsNamedInTheMessage() throws {
        let zoom = "--zoom expects a zoom level or a range like 0-6, got "
        let bbox = "--bbox expects W,S,E,N in degrees, got "
        let shard = "--shard expects I/N (the I-th of N parts, I from 0), got "
        let cases: [(option: String, text: String, message: String)] = [
            ("--zoom", "-1", zoom + "'-1'"), ("--zoom", "a", zoom + "'a'"), ("--zoom", "1-2-3", zoom + "'1-2-3'"),
            ("--zoom", "", zoom + "''"), ("--zoom", "1.5", zoom + "'1.5'"),
            ("--bbox", "1,2,3", bbox + "'1,2,3'"), ("--bbox", "a,b,c,d", bbox + "'a,b,c,d'"),
            ("--bbox", "nan,0,1,1", bbox + "'nan,0,1,1'"),
            ("--bbox", "-190,0,5.5,5", "--bbox -190,0,5.5,5 is outside -180,-90,180,90"),
            ("--shard", "x/2", shard + "'x/2'"), ("--shard", "1", shard + "'1'"),
            ("--shard", "1/2/3", shard + "'1/2/3'"),
            ("--shard", "1/0", "--shard 1/0: the number of shards must be from 1 to 100000"),
            ("--shard", "-1/4", "--shard -1/4: the index must be from 0 to 3"),
            ("--buffer", "2000", "--buffer 2000 is out of range: 0 to 1024"),
        ]
        for (option, text, message) in cases {
            // --zoom is required: the other options come with a valid one.
            let zoomArguments = option == "--zoom" ? [] : ["--zoom", "1"]
            try expectRejected(["tiles", world] + zoomArguments + [option, text, "-o", "DIR/out"], mentions: message)
        }
    }

    /// Resuming a file made with other options names the options that must agree.
    @Test func resumingAnotherJobsFile() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let path = directory.appendingPathComponent("a.mbtiles").path
        #expect(try Meridian.run(["tiles", world, "--zoom", "0-1", "--quiet", "-o", path]).status == 0)
        let run = try Meridian.run(["tiles", world, "--zoom", "0-2", "--resume", "--quiet", "-o", path])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "meridian tiles: \(path): was made by a different job (maxzoom is '1', this job's is '2'): --resume needs the same --zoom, --bbox, --tile-size, --scale and --buffer\n"
        )
    }

    /// `--version` names the version; the command list names every command.
    @Test func versionAndCommands() throws {
        let version = try Meridian.run(["--version"])
        #expect(version.status == 0 && version.stderr.isEmpty)
        let words = version.stdout.split(separator: " ")
        #expect(words.count == 2 && words[0] == "meridian", "\(version.stdout)")
        #expect(
            words[1].split(separator: ".").count == 3
                && words[1].split(separator: ".").allSatisfy { Int($0.trimmingCharacters(in: .newlines)) != nil })
        let help = try Meridian.run(["--help"])
        for command in ["render", "tiles", "merge", "convert", "serve", "sheet", "grid", "coord", "diff"] {
            #expect(help.stderr.contains("  \(command) "), "\(command) is not listed: \(help.stderr)")
        }
    }

    @Test func directoryInBothSchemesWithSummary() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let xyz = directory.path + "/xyz"
        let tms = directory.path + "/tms"
        let json = directory.path + "/s.json"
        let run = try Meridian.run([
            "tiles", world, "--zoom", "0-2", "-o", xyz, "--summary-json", json, "--workers", "2",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("21 tiles written") && run.stdout.contains(xyz), "\(run.stdout)")
        // Not a terminal: progress comes as plain lines, the last one at 100 %.
        #expect(run.stderr.split(separator: "\n").last?.contains("100.0% 21/21 tiles") == true, "\(run.stderr)")
        let files = try FileTree.tiles(under: xyz)
        #expect(files.count == 21)
        let summary =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        #expect(summary["tiles"] as? Int == 21 && summary["skipped"] as? Int == 0)
        #expect(summary["bytes"] as? Int == files.values.reduce(0) { $0 + $1.count })
        #expect((summary["distinct"] as? Int).map { $0 >= 1 && $0 <= 21 } == true)
        #expect((summary["tiles_per_second"] as? Double).map { $0 > 0 } == true && summary["seconds"] is Double)
        let tile = try PNG.decode(files["2/1/1.png"]!)
        #expect(tile.width == 256 && tile.height == 256)

        let quiet = try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", tms, "--scheme", "tms", "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let flipped = try FileTree.tiles(under: tms)
        #expect(flipped.count == 21)
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    #expect(flipped["\(z)/\(x)/\((1 << z) - 1 - y).png"] == files["\(z)/\(x)/\(y).png"])
                }
            }
        }
    }

    @Test func highDensityTilesHaveTwiceThePixels() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let run = try Meridian.run([
            "tiles", world, "--zoom", "1", "--tile-size", "512", "--scale", "2", "-o", directory.path + "/t", "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let tile = try PNG.decode(contentsOf: directory.path + "/t/1/0/0.png")
        #expect(tile.width == 1024 && tile.height == 1024)
    }

    @Test func shardsMergedEqualTheWholeJob() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let d = directory.path
        let common = ["tiles", world, "--zoom", "0-4", "--quiet", "--metatile", "4"]
        #expect(try Meridian.run(common + ["-o", d + "/whole.mbtiles"]).status == 0)
        var parts: [String] = []
        var counts: [Int] = []
        for i in 0..<3 {
            let part = d + "/part\(i).mbtiles"
            let run = try Meridian.run(common + ["--shard", "\(i)/3", "-o", part])
            #expect(run.status == 0, "\(run.stderr)")
            parts.append(part)
            counts.append(Int(try SQLiteShell.query(part, "SELECT count(*) FROM tiles")) ?? -1)
        }
        #expect(counts.reduce(0, +) == 341 && counts.allSatisfy { $0 > 50 }, "\(counts)")
        let merge = try Meridian.run(["merge"] + parts + ["-o", d + "/all.mbtiles"])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains("341 tiles"))
        #expect(try SQLiteShell.content(d + "/all.mbtiles") == (try SQLiteShell.content(d + "/whole.mbtiles")))
        // Byte for byte: both files are copies in key order.
        let same =
            try Data(contentsOf: URL(fileURLWithPath: d + "/all.mbtiles"))
            == Data(contentsOf: URL(fileURLWithPath: d + "/whole.mbtiles"))
        #expect(same, "the merged file's bytes differ from the whole job's")
        #expect(try SQLiteShell.query(d + "/all.mbtiles", "PRAGMA integrity_check") == "ok")
    }
}
