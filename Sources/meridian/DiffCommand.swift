import Foundation
import ImageDiff
import Raster
import Tiles

/// `meridian diff EXPECTED ACTUAL`: perceptual comparison of two PNGs for golden-image checks.
/// Exit 0 within the allowance, 1 beyond it, 2 when the comparison cannot be made.
enum DiffCommand: Subcommand {
    static let name = "diff"
    static let summary = "compare two PNG images, or two tile pyramids, perceptually (golden-image checks)"
    static let usage = """
        usage: meridian diff EXPECTED.png ACTUAL.png [--threshold T] [--allowed-fraction F | --allowed-pixels N]
                             [--include-aa] [--diff-image OUT.png]

        Compares ACTUAL with EXPECTED pixel by pixel and prints how many pixels differ.
          --threshold T         colour distance from 0 to 1 above which a pixel differs (default 0.1;
                                0 counts any change, 1 counts nothing)
          --allowed-fraction F  pass when at most this fraction (0 to 1) of the pixels differ
          --allowed-pixels N    pass when at most N pixels differ (default 0)
          --include-aa          count pixels that differ only by anti-aliasing too
          --diff-image OUT.png  write the expected image in faded grey with differing pixels red
                                and anti-aliased ones yellow
        Exit status: 0 within the allowance, 1 beyond it (or sizes differ), 2 unusable input.

        usage: meridian diff EXPECTED ACTUAL [options above] [--scheme xyz|tms]
        where EXPECTED and ACTUAL are tile pyramids: directories of z/x/y.png or .mbtiles files.
        Compares them tile by tile: lists tiles missing on either side and tiles that differ beyond
        the allowance (which applies to each tile). --diff-image DIR writes a diff image for each
        differing tile as DIR/z/x/y.png; --scheme tms reads directories with rows from the south.
        Exit status: 0 when every tile is on both sides and within the allowance, 1 otherwise,
        2 unusable input.
        """
    static let flags: Set<String> = ["include-aa"]

    /// How much difference still passes.
    enum Allowance: CustomStringConvertible {
        case pixels(Int)
        case fraction(Double)

        func permits(_ result: DiffResult) -> Bool {
            if result.sizesDiffer { return false }
            switch self {
            case .pixels(let limit): return result.differingPixels <= limit
            case .fraction(let limit): return result.differingFraction <= limit
            }
        }

        var description: String {
            switch self {
            case .pixels(let limit): return limit == 1 ? "1 pixel" : "\(limit) pixels"
            case .fraction(let limit): return DiffResult.percent(limit) + " of the pixels"
            }
        }
    }

    struct Options {
        var comparator: ImageComparator
        var allowance: Allowance
        var diffImagePath: String?
    }

    /// What the two positional arguments name: two PNG images, or two tile pyramids
    /// (directories of z/x/y.png or MBTiles files, in any combination).
    enum Mode {
        case images(expected: String, actual: String)
        case pyramids(expected: String, actual: String)
    }

    static func run(_ arguments: Arguments) throws -> Int32 {
        let options = try parseOptions(arguments)
        let schemeText = try arguments.value("scheme")
        try arguments.finish(maxPositional: 2)
        guard arguments.positional.count == 2 else {
            throw UsageError("needs two PNG files, or two tile pyramids, EXPECTED and ACTUAL")
        }
        switch try mode(arguments.positional[0], arguments.positional[1]) {
        case .images(let expected, let actual):
            if schemeText != nil { throw UsageError("--scheme is for tile pyramids, not images") }
            return try compareImages(expected: expected, actual: actual, options: options)
        case .pyramids(let expected, let actual):
            var scheme = TileScheme.xyz
            if let schemeText {
                guard let chosen = TileScheme(rawValue: schemeText) else {
                    throw UsageError("--scheme expects xyz or tms, got '\(schemeText)'")
                }
                scheme = chosen
            }
            return try comparePyramids(expected: expected, actual: actual, scheme: scheme, options: options)
        }
    }

    static func parseOptions(_ arguments: Arguments) throws -> Options {
        var threshold = 0.1
        if let text = try arguments.value("threshold") {
            guard let value = Double(text), value >= 0, value <= 1 else {
                throw UsageError("--threshold must be a number from 0 to 1, not '\(text)'")
            }
            threshold = value
        }
        let fraction = try arguments.value("allowed-fraction")
        let pixels = try arguments.value("allowed-pixels")
        var allowance = Allowance.pixels(0)
        switch (fraction, pixels) {
        case (.some, .some):
            throw UsageError("give --allowed-fraction or --allowed-pixels, not both")
        case (.some(let text), nil):
            guard let value = Double(text), value >= 0, value <= 1 else {
                throw UsageError("--allowed-fraction must be a number from 0 to 1, not '\(text)'")
            }
            allowance = .fraction(value)
        case (nil, .some(let text)):
            guard let value = Int(text), value >= 0 else {
                throw UsageError("--allowed-pixels must be a whole number of pixels, not '\(text)'")
            }
            allowance = .pixels(value)
        case (nil, nil):
            break
        }
        return Options(
            comparator: ImageComparator(threshold: threshold, includeAntiAliased: arguments.flag("include-aa")),
            allowance: allowance, diffImagePath: try arguments.value("diff-image"))
    }

    static func mode(_ expected: String, _ actual: String) throws -> Mode {
        func isPyramid(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            return (exists && isDirectory.boolValue) || path.lowercased().hasSuffix(".mbtiles")
        }
        switch (isPyramid(expected), isPyramid(actual)) {
        case (true, true): return .pyramids(expected: expected, actual: actual)
        case (false, false): return .images(expected: expected, actual: actual)
        case (true, false):
            throw UnusableInput(
                description: "\(expected) is a tile pyramid but \(actual) is not: compare two images or two pyramids")
        case (false, true):
            throw UnusableInput(
                description: "\(actual) is a tile pyramid but \(expected) is not: compare two images or two pyramids")
        }
    }

    /// How many tiles of each kind are listed by name before "... and N more".
    static let listedTiles = 20

    static func comparePyramids(expected: String, actual: String, scheme: TileScheme, options: Options) throws -> Int32
    {
        let allowance = options.allowance
        let diff = PyramidDiff(comparator: options.comparator, permits: { allowance.permits($0) })
        let report: PyramidDiff.Report
        do {
            let a = try openPyramid(expected, scheme: scheme)
            let b = try openPyramid(actual, scheme: scheme)
            let writer: ((TileID, Image) throws -> Void)? = options.diffImagePath.map { root in
                { id, image in
                    let folder = "\(root)/\(id.z)/\(id.x)"
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try PNG.write(image, toPath: "\(folder)/\(scheme.row(of: id)).png")
                }
            }
            report = try diff.compare(expected: a, actual: b, diffImage: writer)
        } catch {
            throw UnusableInput(description: "\(error)")
        }
        func list(_ title: String, _ tiles: [TileID]) {
            guard !tiles.isEmpty else { return }
            var line =
                "\(title): \(tiles.count) tile\(tiles.count == 1 ? "" : "s"): "
                + tiles.prefix(listedTiles).map(\.description).joined(separator: " ")
            if tiles.count > listedTiles { line += " ... and \(tiles.count - listedTiles) more" }
            print(line)
        }
        list("missing in \(actual)", report.missingInActual)
        list("missing in \(expected)", report.missingInExpected)
        for (tile, result) in report.differing.prefix(listedTiles) { print("differs: \(tile): \(result.summary)") }
        if report.differing.count > listedTiles {
            print("... and \(report.differing.count - listedTiles) more differing tiles")
        }
        print(
            "\(report.compared) tiles on both sides: \(report.matching) match, \(report.differing.count) differ; \(report.missingInActual.count) missing in ACTUAL, \(report.missingInExpected.count) missing in EXPECTED"
        )
        if let path = options.diffImagePath, !report.differing.isEmpty { print("diff images: \(path)/z/x/y.png") }
        print(
            report.passed
                ? "every tile within the allowance of \(allowance) per tile"
                : "beyond the allowance of \(allowance) per tile")
        return report.passed ? 0 : 1
    }

    static func compareImages(expected: String, actual: String, options: Options) throws -> Int32 {
        let expectedImage: Image
        let actualImage: Image
        do {
            expectedImage = try PNG.decode(contentsOf: expected)
            actualImage = try PNG.decode(contentsOf: actual)
        } catch {
            throw UnusableInput(description: error.description)
        }
        let result = options.comparator.compare(
            expected: expectedImage, actual: actualImage,
            makeDiffImage: options.diffImagePath != nil)
        print(result.summary)
        if let path = options.diffImagePath {
            if let diff = result.diffImage {
                do {
                    try PNG.write(diff, toPath: path)
                } catch {
                    throw UnusableInput(description: error.description)
                }
                print("diff image: \(path)")
            } else {
                print("no diff image: the sizes differ")
            }
        }
        let passed = options.allowance.permits(result)
        print(passed ? "within the allowance of \(options.allowance)" : "beyond the allowance of \(options.allowance)")
        return passed ? 0 : 1
    }
}

/// Input the command cannot compare (missing file, not a PNG) or an output it cannot write:
/// exit status 2, so scripts can tell "images differ" (1) from "could not compare".
struct UnusableInput: Error, CustomStringConvertible, ExitStatusProviding {
    let description: String
    var exitStatus: Int32 { 2 }
}
