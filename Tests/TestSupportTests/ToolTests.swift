import Foundation
import Testing

@testable import TestSupport

/// The helpers that run other programs fail the test when the program fails, and say what it
/// printed: a broken file never reads as an empty one.
@Suite struct ToolTests {
    @Test func sqliteOnABrokenMBTilesFileFails() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let broken = folder.appendingPathComponent("broken.mbtiles").path
        let other = folder.appendingPathComponent("other.mbtiles").path
        try Data("not an SQLite database, just text long enough to be read as a header".utf8)
            .write(to: URL(fileURLWithPath: broken))
        try Data(repeating: 0x55, count: 4096).write(to: URL(fileURLWithPath: other))
        for path in [broken, other] {
            let failure = #expect(throws: ToolFailure.self) { try SQLiteShell.content(path) }
            // The message names the command, its exit status and sqlite3's own words.
            let message = failure?.description ?? ""
            #expect(message.contains("sqlite3") && message.contains(path), "\(message)")
            #expect(message.contains("exited with") && message.contains("file is not a database"), "\(message)")
        }
        // So two broken files cannot compare equal: neither gives an answer to compare.
        #expect(throws: ToolFailure.self) { try SQLiteShell.query(broken, "SELECT count(*) FROM tiles") }
    }

    @Test func aFailingProgramFailsAndAWorkingOneAnswers() throws {
        #expect(try Tool.output("sh", ["-c", "printf 'a\\nb'"]) == "a\nb")
        #expect(try Tool.output("sh", ["-c", "cat"], input: "in") == "in")
        let failure = #expect(throws: ToolFailure.self) {
            try Tool.output("sh", ["-c", "echo partial; echo trouble >&2; exit 3"])
        }
        #expect(
            failure?.description == "`sh -c echo partial; echo trouble >&2; exit 3` exited with 3: trouble\npartial")
        // A program that is not there is a failure too (env's 127), not an empty answer.
        #expect(throws: ToolFailure.self) { try Tool.output("no-such-program-anywhere", []) }
    }

    @Test func geoConvertFailuresAreReported() throws {
        // GeoConvert rejects an unknown option with a non-zero status.
        #expect(throws: ToolFailure.self) { try GeoConvert.run(["--no-such-option"], ["0 0"]) }
        // And answers what GeographicLib answers (UTM 31N's central meridian, on the equator).
        let utm = try GeoConvert.utm(latitude: 0, longitude: 3, zone: "31n")
        #expect(utm.easting == 500_000 && utm.northing == 0)
    }

    @Test func aMissingOrUnreadableTreeIsAnErrorNotEmpty() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        #expect(throws: (any Error).self) { try FileTree.files(under: folder.path + "/missing") }
        let file = folder.appendingPathComponent("file").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        #expect(throws: (any Error).self) { try FileTree.files(under: file) }
        // A tree that is there is read whole, folders included.
        try FileManager.default.createDirectory(atPath: folder.path + "/a/b", withIntermediateDirectories: true)
        try Data([4]).write(to: URL(fileURLWithPath: folder.path + "/a/b/c"))
        #expect(try FileTree.files(under: folder.path) == ["file": [1, 2, 3], "a/b/c": [4]])
        #expect(try FileTree.paths(under: folder.path) == ["a", "a/b", "a/b/c", "file"])
        // Only a tree being written may be missing, and then it is empty.
        #expect(try FileTree.livePaths(under: folder.path + "/missing").isEmpty)
    }
}
