import Foundation
import TestSupport
import Testing

@testable import Render

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

    /// `render` and `sheet` set their stage quietly: a heartbeat shows it (a quick render
    /// prints nothing), a reader's or the label placement's report shows at once, and after
    /// `end` nothing more is shown.
    @Test func aSingleRenderShowsItsStagesOnlyWhenLong() throws {
        let shown = try lines { progress in
            progress.setStage("reading the map")
            progress.stage("reading roads: 1.2 M features")
            progress.setStage("rendering")
            progress.tick()
            progress.labelStage(zoom: nil)(LabelStage(scale: 1e6, evaluated: 120_000))
            progress.end()
            progress.tick()
        }
        #expect(shown == ["reading roads: 1.2 M features", "rendering", "placing labels: 120 k"])
    }

    /// A pyramid whose label placement is long (30,000 labelled points at zoom 0) says so,
    /// with the zoom, as the renderer places them.
    @Test func aJobReportsLabelPlacementWithItsZoom() throws {
        let features = (0..<30_000).map { i in
            TestMap.point(Double(i % 300) * 1.2 - 179, Double(i / 300) * 1.3 - 65, #"{"name": "P\#(i)"}"#)
        }
        let map = try TestMap.load(
            features: features,
            layers: [#"{"name": "places", "label": {"attribute": "name", "font": "DejaVu Sans", "size": 8}}"#])
        let shown = try lines { progress in
            let plan = try MetatilePlan(pyramid: try TilePyramid(zooms: ZoomRange(min: 0, max: 0)), size: 1)
            let root = try TemporaryFolder.create().path
            defer { TemporaryFolder.remove(root) }
            _ = try TileJob(plan: plan, workers: 1, resume: false).run(
                sink: DirectorySink(root: root, scheme: .xyz), encoder: CountingEncoder(), progress: progress
            ) { try MapTileRenderer(map: map, format: TileFormat(), buffer: 0, progress: progress) }
        }
        #expect(shown.contains { $0.hasSuffix("(placing labels for zoom 0)") }, "\(shown)")
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
