import Foundation
import Glibc

/// A `meridian` process running in the background, for tests that kill a job part-way.
/// Its standard error comes through a pipe: what it printed is kept for messages, and the
/// pipe's end tells a waiting test that the process has exited.
public final class MeridianJob {
    public let arguments: [String]
    private let process: Process
    private let errors: FileHandle
    private var printed: [UInt8] = []
    /// Whether the process has closed its end of the pipe (it has exited).
    public private(set) var ended = false

    init(binary: URL, arguments: [String]) throws {
        self.arguments = arguments
        process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        errors = pipe.fileHandleForReading
        try process.run()
    }

    /// The read end of the process's standard error, for `poll`.
    var errorDescriptor: Int32 { errors.fileDescriptor }

    /// Reads what the process printed since the last call; notes its exit at the pipe's end.
    func drainErrors() {
        let data = errors.availableData
        if data.isEmpty { ended = true } else { printed += data }
    }

    /// What the process printed on standard error so far.
    public var stderr: String { String(decoding: printed, as: UTF8.self) }

    /// Kills the process with SIGKILL, as a crash or `kill -9` would, and waits for it.
    /// Returns false when it had already exited (nothing was killed).
    public func kill() -> Bool {
        // Once the pipe has ended the process has exited, but `isRunning` turns false only
        // when Foundation has reaped it: wait for that so the two agree.
        if ended { process.waitUntilExit() }
        guard process.isRunning else { return false }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    /// Sends `signal` (SIGTERM, SIGINT) as a user or a scheduler would, waits for the process
    /// to exit, and returns its exit status; nil when it had already exited.
    public func stop(with signal: Int32) -> Int32? {
        if ended { process.waitUntilExit() }
        guard process.isRunning else { return nil }
        Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
        // What it printed up to its exit (the line that says where it stopped).
        while !ended { drainErrors() }
        return process.terminationStatus
    }

    /// Waits for the process to exit and returns its exit status.
    public func waitUntilExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }
}
