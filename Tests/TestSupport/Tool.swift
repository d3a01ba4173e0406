import Foundation
import Raster
import Testing

/// What a finished process did: its exit status and everything it printed.
public struct ToolRun: Sendable, CustomStringConvertible {
    /// The program and its arguments, as run.
    public let command: [String]
    public let status: Int32
    public let output: [UInt8]
    public let errors: [UInt8]

    /// Standard output as text.
    public var stdout: String { String(decoding: output, as: UTF8.self) }
    /// Standard error as text.
    public var stderr: String { String(decoding: errors, as: UTF8.self) }

    /// "`sqlite3 -batch x.mbtiles ...` exited with 1: Error: file is not a database".
    public var description: String {
        let printed = (stderr + stdout).trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = printed.count > 2000 ? String(printed.prefix(2000)) + "..." : printed
        return "`\(command.joined(separator: " "))` exited with \(status)"
            + (shown.isEmpty ? " and printed nothing" : ": " + shown)
    }

    /// This run when it exited 0; otherwise a `ToolFailure` that says what it printed.
    public func succeeded() throws(ToolFailure) -> ToolRun {
        guard status == 0 else { throw ToolFailure(self) }
        return self
    }
}

/// A process that failed where the test needed it to succeed: it exited non-zero, or printed
/// something the test cannot use. The description says what it printed.
public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ run: ToolRun) {
        description = run.description
    }

    public init(description: String) {
        self.description = description
    }

    public init(_ run: ToolRun, unusable problem: String) {
        let printed = run.stdout.count > 2000 ? String(run.stdout.prefix(2000)) + "..." : run.stdout
        description = "`\(run.command.joined(separator: " "))` \(problem): \(printed)"
    }
}

/// Runs programs: the independent references the tests check against (GeoConvert, sqlite3,
/// poppler, pypng) and the `meridian` binary itself.
public enum Tool {
    /// Runs `program` (a path, or a name looked up on PATH) to completion. Its output goes to
    /// files, not pipes, so nothing blocks however much it prints; `input` is its standard
    /// input; `environment` is added to the test's own. The exit status is returned, not
    /// judged: use `output` when the program must succeed.
    public static func run(
        _ program: String, _ arguments: [String], input: String? = nil, directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> ToolRun {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data((input ?? "").utf8).write(to: inURL)
        for url in [outURL, errURL] { try Data().write(to: url) }
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdin = try FileHandle(forReadingFrom: inURL)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        return ToolRun(
            command: [program] + arguments, status: process.terminationStatus,
            output: try FileIO.readBytes(atPath: outURL.path), errors: try FileIO.readBytes(atPath: errURL.path))
    }

    /// Runs `program`, which must succeed, and returns its standard output; otherwise throws a
    /// `ToolFailure` with its exit status and what it printed.
    @discardableResult
    public static func output(_ program: String, _ arguments: [String], input: String? = nil) throws -> String {
        try run(program, arguments, input: input).succeeded().stdout
    }
}
