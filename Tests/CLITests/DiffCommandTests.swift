import Foundation
import Raster
import TestSupport
import Testing

/// Runs the built `meridian diff` the way users do and checks exit status and output.
@Suite struct DiffCommandTests {
    /// A scratch directory holding `expected.png` and any `actual*.png` written by `images`.
    func scratch(_ images: [String: Image]) throws -> String {
        let dir = try TemporaryFolder.create().path
        do {
            for (name, image) in images { try PNG.write(image, toPath: dir + "/" + name) }
        } catch {
            TemporaryFolder.remove(dir)
            throw error
        }
        return dir
    }

    static let base = Image(width: 40, height: 25, fill: RGBA(240, 235, 220))

    static func edge(at column: Int) -> Image {
        var image = base
        for y in 0..<25 {
            for x in 0...column { image[x, y] = x == column ? RGBA(120, 120, 140) : RGBA(10, 40, 90) }
        }
        return image
    }

    @Test func identicalImagesPass() throws {
        let dir = try scratch(["expected.png": Self.base, "actual.png": Self.base])
        defer { TemporaryFolder.remove(dir) }
        let run = try Meridian.run(["diff", dir + "/expected.png", dir + "/actual.png"])
        #expect(run.status == 0)
        #expect(run.stdout == "0 of 1000 pixels differ (0.0%)\nwithin the allowance of 0 pixels\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func onePixelFailsUnlessAllowed() throws {
        var changed = Self.base
        changed[7, 3] = RGBA(200, 30, 30)
        let dir = try scratch(["expected.png": Self.base, "actual.png": changed])
        defer { TemporaryFolder.remove(dir) }
        let files = [dir + "/expected.png", dir + "/actual.png"]
        let strict = try Meridian.run(["diff"] + files + ["--diff-image", dir + "/diff.png"])
        #expect(strict.status == 1)
        #expect(
            strict.stdout
                == "1 of 1000 pixels differ (0.100%)\ndiff image: \(dir)/diff.png\nbeyond the allowance of 0 pixels\n")
        let diff = try PNG.decode(contentsOf: dir + "/diff.png")
        #expect(diff[7, 3] == RGBA(255, 0, 0) && diff[8, 3] != RGBA(255, 0, 0))
        #expect(try Meridian.run(["diff"] + files + ["--allowed-pixels", "1"]).status == 0)
        #expect(try Meridian.run(["diff"] + files + ["--allowed-fraction", "0.001"]).status == 0)
        #expect(try Meridian.run(["diff"] + files + ["--allowed-fraction", "0.0009"]).status == 1)
        // A dark red on cream is far beyond even a lenient threshold.
        #expect(try Meridian.run(["diff"] + files + ["--threshold", "0.5"]).status == 1)
    }

    @Test func thresholdDecidesSmallChanges() throws {
        var tinted = Self.base
        tinted[1, 1] = RGBA(212, 207, 192)  // 28 darker in every channel: distance 0.5053 * 28² = 396
        let dir = try scratch(["expected.png": Self.base, "actual.png": tinted])
        defer { TemporaryFolder.remove(dir) }
        let files = [dir + "/expected.png", dir + "/actual.png"]
        #expect(try Meridian.run(["diff"] + files).status == 1)  // 0.1 allows 352
        #expect(try Meridian.run(["diff"] + files + ["--threshold", "0.11"]).status == 0)  // 0.11 allows 426
    }

    @Test func shiftedEdgeIsAntiAliasingUnlessIncluded() throws {
        let dir = try scratch(["expected.png": Self.edge(at: 12), "actual.png": Self.edge(at: 13)])
        defer { TemporaryFolder.remove(dir) }
        let files = [dir + "/expected.png", dir + "/actual.png"]
        let lenient = try Meridian.run(["diff"] + files)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.hasPrefix("0 of 1000 pixels differ (0.0%), 50 anti-aliased not counted\n"))
        let counted = try Meridian.run(["diff"] + files + ["--include-aa"])
        #expect(counted.status == 1)
        #expect(counted.stdout.hasPrefix("50 of 1000 pixels differ (5.000%)\n"))
    }

    @Test func differentSizesFail() throws {
        let dir = try scratch(["expected.png": Self.base, "actual.png": Image(width: 40, height: 26, fill: .white)])
        defer { TemporaryFolder.remove(dir) }
        let run = try Meridian.run(["diff", dir + "/expected.png", dir + "/actual.png", "--diff-image", dir + "/d.png"])
        #expect(run.status == 1)
        #expect(
            run.stdout
                == "sizes differ: expected 40x25, actual 40x26\nno diff image: the sizes differ\nbeyond the allowance of 0 pixels\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/d.png"))
    }

    @Test func unusableInputExitsTwoWithOneLine() throws {
        let dir = try scratch(["expected.png": Self.base])
        defer { TemporaryFolder.remove(dir) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir + "/text.png"))
        let expected = dir + "/expected.png"
        let cases: [([String], String)] = [
            (
                [expected, dir + "/missing.png"],
                "meridian diff: \(dir)/missing.png: cannot read: No such file or directory\n"
            ),
            ([expected, dir + "/text.png"], "meridian diff: \(dir)/text.png: not a PNG file: no PNG signature\n"),
            ([expected], "meridian diff: needs two PNG files, or two tile pyramids, EXPECTED and ACTUAL\n"),
            (
                [expected, expected, "--threshold", "1.5"],
                "meridian diff: --threshold must be a number from 0 to 1, not '1.5'\n"
            ),
            (
                [expected, expected, "--allowed-pixels", "2", "--allowed-fraction", "0.1"],
                "meridian diff: give --allowed-fraction or --allowed-pixels, not both\n"
            ),
            (
                [expected, expected, "--allowed-pixels", "-3"],
                "meridian diff: --allowed-pixels must be a whole number of pixels, not '-3'\n"
            ),
            ([expected, expected, "--colour"], "meridian diff: unknown option --colour\n"),
            (
                [expected, expected, "--diff-image", dir + "/no/such/d.png"],
                "meridian diff: \(dir)/no/such/d.png: cannot write: the folder \(dir)/no/such does not exist\n"
            ),
            (
                [dir, expected],
                "meridian diff: \(dir) is a tile pyramid but \(expected) is not: compare two images or two pyramids\n"
            ),
        ]
        for (arguments, message) in cases {
            let run = try Meridian.run(["diff"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == message)
        }
    }
}
