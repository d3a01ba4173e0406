import Foundation
import ImageDiff
import Raster
import Testing

/// Golden-image testing: compare a rendered image with an expected PNG kept in the
/// repository, keep the evidence when they differ, and refresh the expected images on request.
///
///     let golden = GoldenCheck(threshold: 0.015)   // the repository; evidence in .build/
///     try golden.verify("world-z2", actual: image, expected: "Fixtures/golden/world-z2.png")
///
/// On a mismatch `verify` writes `<case>.actual.png` and `<case>.diff.png` to the artifacts
/// directory and throws a `GoldenFailure` naming the case, the differing fraction and both
/// paths. With `MERIDIAN_GOLDEN_UPDATE=1` in the environment (`make golden-update`) it
/// (re)writes an expected PNG that is missing or that the render no longer matches, and
/// passes, and records the old and new images in the review directory, from which
/// `golden-review` makes the contact sheet a person looks at before committing. A golden that
/// still matches within the allowance is left alone, so fonts and anti-aliasing that differ
/// slightly between machines do not churn the repository; `MERIDIAN_GOLDEN_UPDATE=all`
/// rewrites every golden whose pixels changed at all.
public struct GoldenCheck: Sendable {
    /// Where `<case>.actual.png` and `<case>.diff.png` go on failure.
    public var artifactsDirectory: String
    /// Relative expected paths are taken from here (the package root for tests).
    public var root: String
    /// Where update mode records each image it changes (see `GoldenReview`); nil for nowhere.
    public var reviewDirectory: String?
    public var comparator: ImageComparator
    /// Fraction of pixels (0...1) that may differ and still pass.
    public var allowedFraction: Double
    /// Write expected images that are missing or no longer match, instead of failing.
    public var update: Bool
    /// In update mode, also rewrite goldens that still match but whose pixels changed.
    public var updateAll: Bool

    public init(
        artifactsDirectory: String, root: String, reviewDirectory: String? = nil,
        threshold: Double = 0.1, allowedFraction: Double = 0, includeAntiAliased: Bool = false,
        update: Bool = GoldenCheck.updateRequested(),
        updateAll: Bool = GoldenCheck.updateAllRequested()
    ) {
        self.artifactsDirectory = artifactsDirectory
        self.root = root
        self.reviewDirectory = reviewDirectory
        self.comparator = ImageComparator(threshold: threshold, includeAntiAliased: includeAntiAliased)
        self.allowedFraction = allowedFraction
        self.update = update
        self.updateAll = updateAll
    }

    /// The repository's goldens: paths relative to its root, evidence in
    /// `.build/golden-artifacts`, changes for review in `.build/golden-review`.
    public init(
        threshold: Double = 0.1, allowedFraction: Double = 0, includeAntiAliased: Bool = false,
        update: Bool = GoldenCheck.updateRequested(), updateAll: Bool = GoldenCheck.updateAllRequested()
    ) {
        self.init(
            artifactsDirectory: GoldenCheck.artifacts, root: Repository.root,
            reviewDirectory: GoldenReview.directory, threshold: threshold, allowedFraction: allowedFraction,
            includeAntiAliased: includeAntiAliased, update: update, updateAll: updateAll)
    }

    /// Where failed comparisons leave their evidence (CI keeps the folder as an artifact).
    public static let artifacts = Repository.build("golden-artifacts")

    /// True when `MERIDIAN_GOLDEN_UPDATE=1` or `all`.
    public static func updateRequested(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ["1", "all"].contains(environment["MERIDIAN_GOLDEN_UPDATE"])
    }

    /// True when `MERIDIAN_GOLDEN_UPDATE=all`.
    public static func updateAllRequested(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        environment["MERIDIAN_GOLDEN_UPDATE"] == "all"
    }

    /// A case name as a file name: anything but letters, digits and `-_.` becomes `_`.
    static func fileName(_ caseName: String) -> String {
        String(caseName.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
    }

    public enum Outcome: Sendable {
        /// Within the allowance; the comparison is attached.
        case matched(DiffResult)
        /// Update mode wrote (or confirmed unchanged) the expected image at this path.
        case updated(path: String)
    }

    /// Compares `actual` with the PNG at `expected` (absolute, or relative to `root`).
    @discardableResult
    public func verify(_ caseName: String, actual: Image, expected: String) throws(GoldenFailure) -> Outcome {
        let expectedPath = expected.hasPrefix("/") ? expected : root + "/" + expected
        let safeName = GoldenCheck.fileName(caseName)
        let actualPath = artifactsDirectory + "/" + safeName + ".actual.png"
        let diffPath = artifactsDirectory + "/" + safeName + ".diff.png"
        func failure(_ reason: GoldenFailure.Reason, actual: String? = nil, diff: String? = nil) -> GoldenFailure {
            GoldenFailure(
                caseName: caseName, reason: reason, expectedPath: expectedPath,
                actualPath: actual, diffPath: diff, allowedFraction: allowedFraction)
        }

        if update {
            // Rewrite only when the pixels changed, so an update leaves untouched files alone,
            // and (unless `updateAll`) only when they changed beyond the allowance. A missing
            // or unreadable old image is simply replaced.
            let old = try? PNG.decode(contentsOf: expectedPath)
            if old == actual { return .updated(path: expectedPath) }
            if !updateAll, let old {
                let result = comparator.compare(expected: old, actual: actual, makeDiffImage: false)
                if !result.sizesDiffer && result.differingFraction <= allowedFraction { return .matched(result) }
            }
            do {
                try createDirectory(containing: expectedPath)
                try PNG.write(actual, toPath: expectedPath)
                if let reviewDirectory {
                    try GoldenReview(directory: reviewDirectory).record(caseName, expected: old, new: actual)
                }
            } catch {
                throw failure(.cannotWrite(String(describing: error)))
            }
            return .updated(path: expectedPath)
        }

        let expectedImage: Image
        do {
            expectedImage = try PNG.decode(contentsOf: expectedPath)
        } catch {
            let written = try? writeArtifact(actual, to: actualPath)
            if error.kind == .unreadable, !FileManager.default.fileExists(atPath: expectedPath) {
                throw failure(.missingExpected, actual: written)
            }
            throw failure(.unreadableExpected(error), actual: written)
        }
        let result = comparator.compare(expected: expectedImage, actual: actual, makeDiffImage: true)
        if !result.sizesDiffer && result.differingFraction <= allowedFraction {
            // Leave no stale evidence of an earlier failure of this case.
            try? FileManager.default.removeItem(atPath: actualPath)
            try? FileManager.default.removeItem(atPath: diffPath)
            return .matched(result)
        }
        do {
            try writeArtifact(actual, to: actualPath)
            if let diff = result.diffImage {
                try writeArtifact(diff, to: diffPath)
            } else {
                try? FileManager.default.removeItem(atPath: diffPath)
            }
        } catch {
            throw failure(.cannotWrite(String(describing: error)))
        }
        throw failure(.differs(result), actual: actualPath, diff: result.diffImage == nil ? nil : diffPath)
    }

    /// Keeps `image` as `<artifacts>/<name>.png`, the evidence of a comparison made outside
    /// `verify` that failed. Evidence that cannot be written fails the test too.
    public static func keepEvidence(_ image: Image, name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = artifacts + "/" + fileName(name) + ".png"
        do {
            try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
            try PNG.write(image, toPath: path)
        } catch {
            Issue.record("cannot keep the evidence \(path): \(error)", sourceLocation: sourceLocation)
        }
    }

    @discardableResult
    private func writeArtifact(_ image: Image, to path: String) throws -> String {
        try createDirectory(containing: path)
        try PNG.write(image, toPath: path)
        return path
    }

    private func createDirectory(containing path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }
}

/// A golden comparison that failed; its description is the whole story in one line.
public struct GoldenFailure: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        case differs(DiffResult)
        case missingExpected
        case unreadableExpected(PNGError)
        case cannotWrite(String)
    }

    public let caseName: String
    public let reason: Reason
    public let expectedPath: String
    /// Where the actual image was written, when it was.
    public let actualPath: String?
    /// Where the diff image was written, when it was.
    public let diffPath: String?
    public let allowedFraction: Double

    public var description: String {
        let artifacts = [actualPath.map { "actual \($0)" }, diffPath.map { "diff \($0)" }].compactMap { $0 }
        let evidence = artifacts.isEmpty ? "" : "; " + artifacts.joined(separator: ", ")
        switch reason {
        case .differs(let result) where result.sizesDiffer:
            return "golden '\(caseName)': size \(result.actualSize) differs from expected \(result.expectedSize) "
                + "(\(expectedPath))" + evidence
        case .differs(let result):
            return "golden '\(caseName)': \(DiffResult.percent(result.differingFraction)) of pixels differ "
                + "(\(result.differingPixels) of \(result.totalPixels), allowed \(DiffResult.percent(allowedFraction))); "
                + "expected \(expectedPath)" + evidence
        case .missingExpected:
            return "golden '\(caseName)': expected image \(expectedPath) does not exist; "
                + "run `make golden-update` to create it" + evidence
        case .unreadableExpected(let error):
            return "golden '\(caseName)': cannot use expected image: \(error)" + evidence
        case .cannotWrite(let why):
            return "golden '\(caseName)': \(why)"
        }
    }
}
