import Foundation
import ImageDiff
import Raster

/// `meridian diff EXPECTED ACTUAL`: perceptual comparison of two PNGs for golden-image checks.
/// Exit 0 within the allowance, 1 beyond it, 2 when the comparison cannot be made.
enum DiffCommand: Subcommand {
    static let name = "diff"
    static let summary = "compare two PNG images perceptually (golden-image checks)"
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

    /// What the two positional arguments name. Only image pairs today; comparing two tile
    /// pyramids (directories of z/x/y.png) is planned as a second mode beside this one.
    enum Mode {
        case images(expected: String, actual: String)
    }

    static func run(_ arguments: Arguments) throws -> Int32 {
        let options = try parseOptions(arguments)
        try arguments.finish(maxPositional: 2)
        guard arguments.positional.count == 2 else {
            throw UsageError("needs two PNG files, EXPECTED and ACTUAL")
        }
        switch try mode(arguments.positional[0], arguments.positional[1]) {
        case let .images(expected, actual):
            return try compareImages(expected: expected, actual: actual, options: options)
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
        return Options(comparator: ImageComparator(threshold: threshold, includeAntiAliased: arguments.flag("include-aa")),
                       allowance: allowance, diffImagePath: try arguments.value("diff-image"))
    }

    static func mode(_ expected: String, _ actual: String) throws -> Mode {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: expected, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UnusableInput(description: "\(expected) is a directory; comparing tile pyramids is not supported yet")
        }
        return .images(expected: expected, actual: actual)
    }

    static func compareImages(expected: String, actual: String, options: Options) throws -> Int32 {
        let expectedImage: Image, actualImage: Image
        do {
            expectedImage = try PNG.decode(contentsOf: expected)
            actualImage = try PNG.decode(contentsOf: actual)
        } catch {
            throw UnusableInput(description: error.description)
        }
        let result = options.comparator.compare(expected: expectedImage, actual: actualImage,
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
