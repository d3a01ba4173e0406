import Foundation
import Raster
import Testing

@testable import TestSupport

/// Tests of the golden-image helper itself. They pass `update:` explicitly, so they behave the
/// same under `make golden-update` (MERIDIAN_GOLDEN_UPDATE=1).
@Suite struct GoldenCheckTests {
    private func scratch() throws -> String {
        try TemporaryFolder.create().path
    }

    private func sample(_ mark: RGBA? = nil) -> Image {
        var image = Image(width: 16, height: 8, fill: RGBA(30, 90, 160))
        if let mark { image[5, 5] = mark }
        return image
    }

    @Test func missingExpectedFailsAndSaysHowToCreateIt() throws {
        let dir = try scratch()
        defer { TemporaryFolder.remove(dir) }
        let check = GoldenCheck(artifactsDirectory: dir + "/artifacts", root: dir, update: false)
        let failure = #expect(throws: GoldenFailure.self) {
            try check.verify("ocean tile", actual: sample(), expected: "golden/ocean.png")
        }
        let text = failure?.description ?? ""
        #expect(text.contains("golden 'ocean tile'"))
        #expect(text.contains("\(dir)/golden/ocean.png does not exist"))
        #expect(text.contains("make golden-update"))
        // The actual image is kept, under a file-safe name.
        #expect(try PNG.decode(contentsOf: dir + "/artifacts/ocean_tile.actual.png") == sample())
    }

    @Test func updateModeWritesTheExpectedImageThenItMatches() throws {
        let dir = try scratch()
        defer { TemporaryFolder.remove(dir) }
        let updating = GoldenCheck(artifactsDirectory: dir + "/artifacts", root: dir, update: true)
        let outcome = try updating.verify("z0", actual: sample(), expected: "golden/deep/z0.png")
        guard case .updated(let path) = outcome else {
            Issue.record("expected .updated, got \(outcome)")
            return
        }
        #expect(path == dir + "/golden/deep/z0.png")
        #expect(try PNG.decode(contentsOf: path) == sample())
        // Update mode also replaces an expected image whose pixels changed.
        try updating.verify("z0", actual: sample(RGBA(255, 0, 0)), expected: "golden/deep/z0.png")
        #expect(try PNG.decode(contentsOf: path) == sample(RGBA(255, 0, 0)))

        let checking = GoldenCheck(artifactsDirectory: dir + "/artifacts", root: dir, update: false)
        guard case .matched(let result) = try checking.verify("z0", actual: sample(RGBA(255, 0, 0)), expected: path)
        else {
            Issue.record("expected a match")
            return
        }
        #expect(result.differingPixels == 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/artifacts/z0.actual.png"))
    }

    @Test func updateModeLeavesAGoldenThatStillMatchesUnlessAllIsAsked() throws {
        let dir = try scratch()
        defer { TemporaryFolder.remove(dir) }
        let path = dir + "/g.png"
        try PNG.write(sample(), toPath: path)
        // One channel one level off: a change the perceptual threshold does not count.
        let nudged = sample(RGBA(31, 90, 160))
        let updating = GoldenCheck(artifactsDirectory: dir + "/a", root: dir, update: true)
        guard case .matched = try updating.verify("g", actual: nudged, expected: "g.png") else {
            Issue.record("a golden within the allowance should be left alone")
            return
        }
        #expect(try PNG.decode(contentsOf: path) == sample())
        let all = GoldenCheck(artifactsDirectory: dir + "/a", root: dir, update: true, updateAll: true)
        try all.verify("g", actual: nudged, expected: "g.png")
        #expect(try PNG.decode(contentsOf: path) == nudged)
    }

    @Test func mismatchWritesActualAndDiffAndNamesThem() throws {
        let dir = try scratch()
        defer { TemporaryFolder.remove(dir) }
        try PNG.write(sample(), toPath: dir + "/expected.png")
        let check = GoldenCheck(artifactsDirectory: dir + "/artifacts", root: dir, update: false)
        let failure = #expect(throws: GoldenFailure.self) {
            try check.verify("marked", actual: sample(RGBA(255, 255, 255)), expected: dir + "/expected.png")
        }
        let actualPath = dir + "/artifacts/marked.actual.png"
        let diffPath = dir + "/artifacts/marked.diff.png"
        #expect(
            failure?.description == "golden 'marked': 0.781% of pixels differ (1 of 128, allowed 0.0%); "
                + "expected \(dir)/expected.png; actual \(actualPath), diff \(diffPath)")
        #expect(try PNG.decode(contentsOf: actualPath) == sample(RGBA(255, 255, 255)))
        let diff = try PNG.decode(contentsOf: diffPath)
        #expect(diff[5, 5] == RGBA(255, 0, 0))
        #expect(diff[0, 0] != RGBA(255, 0, 0))

        // Allowing one pixel in a hundred passes, and clears the old evidence.
        let lenient = GoldenCheck(
            artifactsDirectory: dir + "/artifacts", root: dir, allowedFraction: 0.01, update: false)
        try lenient.verify("marked", actual: sample(RGBA(255, 255, 255)), expected: dir + "/expected.png")
        #expect(!FileManager.default.fileExists(atPath: actualPath))
        #expect(!FileManager.default.fileExists(atPath: diffPath))
    }

    @Test func sizeMismatchAndUnreadableExpected() throws {
        let dir = try scratch()
        defer { TemporaryFolder.remove(dir) }
        try PNG.write(Image(width: 3, height: 3, fill: .white), toPath: dir + "/small.png")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/text.png"))
        let check = GoldenCheck(artifactsDirectory: dir + "/a", root: dir, update: false)
        let sizes = #expect(throws: GoldenFailure.self) {
            try check.verify("s", actual: sample(), expected: "small.png")
        }
        #expect(
            sizes?.description
                == "golden 's': size 16x8 differs from expected 3x3 (\(dir)/small.png); actual \(dir)/a/s.actual.png")
        let text = #expect(throws: GoldenFailure.self) { try check.verify("t", actual: sample(), expected: "text.png") }
        #expect(
            text?.description
                == "golden 't': cannot use expected image: \(dir)/text.png: not a PNG file: no PNG signature; actual \(dir)/a/t.actual.png"
        )
    }

    @Test func environmentSwitchAndPackageDefaults() {
        #expect(GoldenCheck.updateRequested(["MERIDIAN_GOLDEN_UPDATE": "1"]))
        #expect(!GoldenCheck.updateRequested(["MERIDIAN_GOLDEN_UPDATE": "0"]))
        #expect(!GoldenCheck.updateRequested([:]))
        #expect(GoldenCheck.updateRequested(["MERIDIAN_GOLDEN_UPDATE": "all"]))
        #expect(GoldenCheck.updateAllRequested(["MERIDIAN_GOLDEN_UPDATE": "all"]))
        #expect(!GoldenCheck.updateAllRequested(["MERIDIAN_GOLDEN_UPDATE": "1"]))
        let check = GoldenCheck(update: false)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        #expect(check.root == root)
        #expect(FileManager.default.fileExists(atPath: check.root + "/Package.swift"))
        #expect(check.artifactsDirectory == root + "/.build/golden-artifacts")
        #expect(check.reviewDirectory == root + "/.build/golden-review")
    }
}
