import Foundation
import Raster

/// Golden-image testing: compare a rendered image with an expected PNG kept in the
/// repository, keep the evidence when they differ, and refresh the expected images on request.
///
///     let golden = GoldenCheck(testFile: #filePath)   // package root, .build/golden-artifacts
///     try golden.verify("world-z2", actual: image, expected: "Fixtures/golden/world-z2.png")
///
/// On a mismatch `verify` writes `<case>.actual.png` and `<case>.diff.png` to the artifacts
/// directory and throws a `GoldenFailure` naming the case, the differing fraction and both
/// paths. With `MERIDIAN_GOLDEN_UPDATE=1` in the environment (`make golden-update`) it
/// (re)writes the expected PNG instead and passes.
public struct GoldenCheck: Sendable {
    /// Where `<case>.actual.png` and `<case>.diff.png` go on failure.
    public var artifactsDirectory: String
    /// Relative expected paths are taken from here (the package root for tests).
    public var root: String
    public var comparator: ImageComparator
    /// Fraction of pixels (0...1) that may differ and still pass.
    public var allowedFraction: Double
    /// Write expected images instead of comparing.
    public var update: Bool

    public init(
        artifactsDirectory: String, root: String = FileManager.default.currentDirectoryPath,
        threshold: Double = 0.1, allowedFraction: Double = 0, includeAntiAliased: Bool = false,
        update: Bool = GoldenCheck.updateRequested()
    ) {
        self.artifactsDirectory = artifactsDirectory
        self.root = root
        self.comparator = ImageComparator(threshold: threshold, includeAntiAliased: includeAntiAliased)
        self.allowedFraction = allowedFraction
        self.update = update
    }

    /// For tests in a SwiftPM package: the root is the nearest directory above `testFile`
    /// holding Package.swift, and artifacts go to `<root>/.build/golden-artifacts`.
    public init(
        testFile: String = #filePath, threshold: Double = 0.1, allowedFraction: Double = 0,
        includeAntiAliased: Bool = false, update: Bool = GoldenCheck.updateRequested()
    ) {
        let root = GoldenCheck.packageRoot(containing: testFile) ?? FileManager.default.currentDirectoryPath
        self.init(
            artifactsDirectory: root + "/.build/golden-artifacts", root: root, threshold: threshold,
            allowedFraction: allowedFraction, includeAntiAliased: includeAntiAliased, update: update)
    }

    /// True when `MERIDIAN_GOLDEN_UPDATE=1`.
    public static func updateRequested(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["MERIDIAN_GOLDEN_UPDATE"] == "1"
    }

    static func packageRoot(containing file: String) -> String? {
        var url = URL(fileURLWithPath: file).deletingLastPathComponent()
        while url.path != "/" && !url.path.isEmpty {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return nil
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
        let safeName = String(caseName.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        let actualPath = artifactsDirectory + "/" + safeName + ".actual.png"
        let diffPath = artifactsDirectory + "/" + safeName + ".diff.png"
        func failure(_ reason: GoldenFailure.Reason, actual: String? = nil, diff: String? = nil) -> GoldenFailure {
            GoldenFailure(
                caseName: caseName, reason: reason, expectedPath: expectedPath,
                actualPath: actual, diffPath: diff, allowedFraction: allowedFraction)
        }

        if update {
            // Rewrite only when the pixels changed, so an update leaves untouched files alone.
            if let old = try? PNG.decode(contentsOf: expectedPath), old == actual {
                return .updated(path: expectedPath)
            }
            do {
                try createDirectory(containing: expectedPath)
                try PNG.write(actual, toPath: expectedPath)
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
