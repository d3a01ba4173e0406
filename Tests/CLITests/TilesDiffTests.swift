import Foundation
import Raster
import TestSupport
import Testing

/// `meridian diff` on two tile pyramids (directories or MBTiles files): tile by tile, tiles
/// missing on either side listed, differing tiles listed, exit 0/1/2 as for images.
@Suite struct TilesDiffTests {
    let world = Repository.fixture("maps/world.json")

    @Test func directoryAgainstMBTiles() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let d = directory.path
        #expect(try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", d + "/a", "--quiet"]).status == 0)
        #expect(try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", d + "/b.mbtiles", "--quiet"]).status == 0)
        let same = try Meridian.run(["diff", d + "/a", d + "/b.mbtiles"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(
            same.stdout.contains(
                "21 tiles on both sides: 21 match, 0 differ; 0 missing in ACTUAL, 0 missing in EXPECTED"))

        // Change the directory: one tile gone, one extra, one repainted, one nudged by a level.
        try FileManager.default.removeItem(atPath: d + "/a/2/3/3.png")
        try FileManager.default.createDirectory(atPath: d + "/a/3/0", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: d + "/a/0/0/0.png", toPath: d + "/a/3/0/5.png")
        var repainted = try PNG.decode(contentsOf: d + "/a/1/1/0.png")
        for y in 100..<140 { for x in 100..<140 { repainted[x, y] = RGBA(255, 0, 255) } }
        try PNG.write(repainted, toPath: d + "/a/1/1/0.png")
        var nudged = try PNG.decode(contentsOf: d + "/a/2/0/0.png")
        let p = nudged[10, 10]
        nudged[10, 10] = RGBA(p.r &+ 1, p.g, p.b, p.a)
        try PNG.write(nudged, toPath: d + "/a/2/0/0.png")

        let run = try Meridian.run(["diff", d + "/b.mbtiles", d + "/a", "--diff-image", d + "/diffs", "--include-aa"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("missing in \(d)/a: 1 tile: 2/3/3"))
        #expect(run.stdout.contains("missing in \(d)/b.mbtiles: 1 tile: 3/0/5"))
        #expect(run.stdout.contains("differs: 1/1/0: 1600 of 65536 pixels differ"))
        #expect(!run.stdout.contains("differs: 2/0/0"), "a one-level change is under the threshold")
        #expect(
            run.stdout.contains(
                "20 tiles on both sides: 19 match, 1 differ; 1 missing in ACTUAL, 1 missing in EXPECTED"))
        let diffImage = try PNG.decode(contentsOf: d + "/diffs/1/1/0.png")
        #expect(diffImage[120, 120] == RGBA(255, 0, 0))

        // A larger allowance per tile lets the repaint pass, not the missing tiles.
        let allowed = try Meridian.run(["diff", d + "/b.mbtiles", d + "/a", "--allowed-pixels", "2000"])
        #expect(allowed.status == 1 && allowed.stdout.contains("20 match, 0 differ"))
    }

    /// Two pyramids that cannot be read are not two empty pyramids that match.
    @Test func unreadablePyramidsDoNotMatch() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let d = directory.path
        for side in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: d + "/" + side, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: d + "/\(side)/0", withDestinationPath: "0")
        }
        let run = try Meridian.run(["diff", d + "/a", d + "/b"])
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stderr == "meridian diff: \(d)/a/0: Too many levels of symbolic links\n")
    }

    @Test func unusableInputIsExitTwo() throws {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let d = directory.path
        try FileManager.default.createDirectory(atPath: d + "/p", withIntermediateDirectories: true)
        try Data("not sqlite".utf8).write(to: URL(fileURLWithPath: d + "/x.mbtiles"))
        for args in [
            ["diff", d + "/p", d + "/missing.mbtiles"], ["diff", d + "/p", d + "/x.mbtiles"],
            ["diff", d + "/p", Repository.fixture("maps/world.json")],
        ] {
            let run = try Meridian.run(args)
            #expect(run.status == 2, "\(args): \(run.stdout) \(run.stderr)")
            #expect(
                run.stderr.hasPrefix("meridian diff: ") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)"
            )
        }
    }
}
