import Foundation

/// The built `meridian` binary, run the way a user runs it.
public enum Meridian {
    /// The binary SwiftPM built next to the test bundle (.build/<config>/meridian).
    public static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("meridian")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: Repository.build("debug/meridian"))
    }

    /// Runs `meridian ARGUMENTS` to completion. The exit status is what a command-line test
    /// asserts on (many expect 1 or 2), so it is returned, not judged; put `run.stderr` in
    /// the expectation's message. `environment` is added to the test's own.
    @discardableResult
    public static func run(
        _ arguments: [String], stdin: String? = nil, directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> ToolRun {
        try Tool.run(binary.path, arguments, input: stdin, directory: directory, environment: environment)
    }

    /// Starts `meridian ARGUMENTS` in the background (standard output discarded).
    public static func start(_ arguments: [String]) throws -> MeridianJob {
        try MeridianJob(binary: binary, arguments: arguments)
    }
}
