import Foundation
import Glibc

/// A `meridian` process running in the background, for tests that kill a job part-way.
/// Its standard error comes through a pipe: what it printed is kept for messages, and the
/// pipe's end tells a waiting test that the process has exited.
///
/// Started with posix_spawn and reaped with waitpid on its own process id, not through
/// Foundation's `Process`: a suite run hung in `Process.waitUntilExit()` with the child
/// already exited and never reaped (Foundation reaps on another thread and missed it).
public final class MeridianJob {
    public let arguments: [String]
    private let pid: pid_t
    /// The read end of the pipe the process writes its standard error into.
    private let errors: Int32
    private var printed: [UInt8] = []
    /// Whether the process has closed its end of the pipe (it has exited).
    public private(set) var ended = false
    /// The wait status, once the process is reaped.
    private var status: Int32?

    init(binary: URL, arguments: [String]) throws {
        self.arguments = arguments
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ToolFailure(description: "meridian: cannot make a pipe (\(String(cString: strerror(errno))))")
        }
        // Not inherited by other tests' children: the pipe must end when this process does.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)  // dup2 clears close-on-exec
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, binary.path, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw ToolFailure(description: "\(binary.path): cannot start it (\(String(cString: strerror(spawned))))")
        }
        pid = child
        errors = ends[0]
    }

    deinit {
        close(errors)
        if status == nil { _ = reap(blocking: false) }  // no zombie left when it has exited
    }

    /// The read end of the process's standard error, for `poll`.
    var errorDescriptor: Int32 { errors }

    /// Reads what the process printed since the last call (waiting for something when
    /// nothing is there); notes its exit at the pipe's end.
    func drainErrors() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(errors, &buffer, buffer.count)
        if count > 0 {
            printed += buffer[0..<count]
        } else if count == 0 || errno != EINTR {
            ended = true
        }
    }

    /// What the process printed on standard error so far.
    public var stderr: String { String(decoding: printed, as: UTF8.self) }

    /// Kills the process with SIGKILL, as a crash or `kill -9` would, and waits for it.
    /// Returns false when it had already exited (nothing was killed).
    public func kill() -> Bool {
        if ended { _ = reap(blocking: true) }  // the pipe has ended: it has exited
        if reap(blocking: false) { return false }
        Glibc.kill(pid, SIGKILL)
        _ = reap(blocking: true)
        return killedBySignal
    }

    /// Sends `signal` (SIGTERM, SIGINT) as a user or a scheduler would, waits for the process
    /// to exit, and returns its exit status; nil when it had already exited.
    public func stop(with signal: Int32) -> Int32? {
        if ended { _ = reap(blocking: true) }
        if reap(blocking: false) { return nil }
        Glibc.kill(pid, signal)
        _ = reap(blocking: true)
        // What it printed up to its exit (the line that says where it stopped).
        while !ended { drainErrors() }
        return terminationStatus
    }

    /// Waits for the process to exit and returns its exit status.
    public func waitUntilExit() -> Int32 {
        _ = reap(blocking: true)
        return terminationStatus
    }

    /// Reaps the process if it has exited (or, `blocking`, once it exits); whether it is reaped.
    private func reap(blocking: Bool) -> Bool {
        if status != nil { return true }
        var waitStatus: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &waitStatus, blocking ? 0 : WNOHANG) } while result == -1 && errno == EINTR
        if result == pid {
            status = waitStatus
        } else if result == -1 {
            status = 0xFF00  // not our child any more (reaped elsewhere): an exit with 255
        }
        return status != nil
    }

    /// Terminated by a signal (the WIFSIGNALED macro, which Swift lacks).
    private var killedBySignal: Bool {
        guard let status else { return false }
        return status & 0x7F != 0 && status & 0x7F != 0x7F
    }

    /// The exit status, or the signal's number when a signal ended it (as Foundation's
    /// `Process.terminationStatus`); -1 while it runs.
    private var terminationStatus: Int32 {
        guard let status else { return -1 }
        return killedBySignal ? status & 0x7F : (status >> 8) & 0xFF
    }
}
