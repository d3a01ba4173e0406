import Foundation

/// GeographicLib's GeoConvert (Debian's geographiclib-tools), the independent reference:
/// lines in, lines out, through files so that large batches cannot block on a pipe.
enum GeoConvert {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ arguments: [String], _ input: [String]) throws -> [String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geoconvert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("in")
        let outURL = dir.appendingPathComponent("out")
        try input.map { $0 + "\n" }.joined().write(to: inURL, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["GeoConvert"] + arguments
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "GeoConvert \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        let lines = try String(contentsOf: outURL, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        guard lines.count >= input.count else {
            throw Failure(description: "GeoConvert wrote \(lines.count) lines for \(input.count)")
        }
        return Array(lines.prefix(input.count))
    }

    /// `LAT LON` with enough digits to name the double exactly enough (1e-12° ≈ 0.1 µm).
    static func text(latitude: Double, longitude: Double) -> String {
        String(format: "%.13f %.13f", latitude, longitude)
    }
}
