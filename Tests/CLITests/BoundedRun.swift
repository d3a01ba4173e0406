import Foundation
import TestSupport
import Testing

/// A run of `meridian` that cannot hang or exhaust the machine: killed after 30 s, its
/// address space capped, its peak memory measured (GNU time). For repros that used to block
/// or grow without bound; tests assert the outcome and the memory, never the duration.
struct BoundedRun {
    let status: Int32
    let stdout: String
    let stderr: String
    /// Peak resident memory, in KiB, of the process (as /usr/bin/time's %M).
    let peakKiB: Int
    /// `timeout` killed it: it was still running after 30 s.
    var timedOut: Bool { status == 128 + SIGKILL }

    static let seconds = 30
    /// Far above what any of these runs needs (about 30 MB), far below what a regression
    /// would take: it fails at this size instead of filling the machine's memory.
    static let addressSpace = 2 << 30

    /// Runs `meridian ARGS` in `directory` with standard input from `stdin` (a file path;
    /// /dev/null when nil).
    static func run(_ arguments: [String], stdin: String? = nil, directory: URL) throws -> BoundedRun {
        let scratch = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        let memoryURL = scratch.appendingPathComponent("memory")
        for url in [outURL, errURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments =
            [
                "-f", "%M", "-o", memoryURL.path, "timeout", "-s", "KILL", String(seconds),
                "prlimit", "--as=\(addressSpace)", Meridian.binary.path,
            ] + arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle(forReadingAtPath: stdin ?? "/dev/null")
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        // GNU time writes "Command exited with non-zero status N" before the figure.
        let memory = try String(contentsOf: memoryURL, encoding: .utf8)
        let peak = memory.split(separator: "\n").last.flatMap { Int($0) } ?? -1
        return BoundedRun(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            peakKiB: peak)
    }
}
