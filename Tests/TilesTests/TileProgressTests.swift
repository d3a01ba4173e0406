import Foundation
import TestSupport
import Testing

@testable import Tiles

/// The progress display shows the current stage before any tile is done and beside the tile
/// counts after; a job reports the zoom it renders. Shown at every call (an interval of 0), so
/// no clock is involved.
@Suite struct TileProgressTests {
    private func lines(_ body: (TileProgress) throws -> Void) throws -> [String] {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.appendingPathComponent("progress").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let output = try #require(FileHandle(forWritingAtPath: path))
        try body(TileProgress(style: .lines(every: 0), output: output))
        try output.close()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func stagesShowBeforeTheFirstTile() throws {
        let shown = try lines { progress in
            progress.tick()
            progress.stage("reading coast: 10 k features")
            progress.tick()
        }
        #expect(shown == ["starting", "reading coast: 10 k features", "reading coast: 10 k features"])
    }

    @Test func aJobReportsEachZoom() throws {
        let shown = try lines { progress in
            let plan = try MetatilePlan(pyramid: try TilePyramid(zooms: ZoomRange(min: 0, max: 2)), size: 2)
            let root = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(root) }
            _ = try TileJob(plan: plan, workers: 1, resume: false).run(
                sink: DirectorySink(root: root, scheme: .xyz), encoder: CountingEncoder(), progress: progress
            ) { PatternRenderer() }
        }
        // Each stage is shown when reported (and again beside later counts), in zoom order.
        let stages = shown.compactMap { line in
            line.range(of: "(rendering zoom ").map { String(line[$0.upperBound...].prefix(1)) }
        }
        #expect(
            stages.enumerated().filter { $0.offset == 0 || stages[$0.offset - 1] != $0.element }.map(\.element) == [
                "0", "1", "2",
            ])
        #expect(shown.last?.hasPrefix("100.0% 21/21 tiles") == true)
    }
}
