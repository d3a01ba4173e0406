import Foundation
import TestSupport
import Testing

@testable import Tiles

/// The lock a job holds on its output: a second writer is refused, and a released lock is
/// free at once even while a child process holds a copy of its descriptor (as every child
/// does between its fork and its exec, whichever thread of the job's process starts it).
@Suite struct OutputLockTests {
    @Test func aSecondWriterIsRefusedUntilTheFirstReleases() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.path + "/out.mbtiles-lock"
        let first = try OutputLock(path: path, output: "out.mbtiles")
        #expect(throws: TilesError.outputBusy(path: "out.mbtiles")) {
            try OutputLock(path: path, output: "out.mbtiles")
        }
        first.release()
        #expect(throws: Never.self) { try OutputLock(path: path, output: "out.mbtiles") }
    }

    @Test func aChildHoldingTheDescriptorDoesNotKeepTheLock() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.path + "/out.mbtiles-lock"
        let lock = try OutputLock(path: path, output: "out.mbtiles")
        let child = try Self.spawnSleeperHolding(descriptorOf: path)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        // The child shares the lock's open file: without the release, a second writer is refused.
        #expect(throws: TilesError.outputBusy(path: "out.mbtiles")) {
            try OutputLock(path: path, output: "out.mbtiles")
        }
        lock.release()
        #expect(kill(child, 0) == 0)  // still running, still holding the descriptor
        #expect(throws: Never.self) { try OutputLock(path: path, output: "out.mbtiles") }
    }

    /// Starts `sleep 30` with this process's descriptor of `path` as its descriptor 3: the
    /// same open file, as a forked child has it.
    static func spawnSleeperHolding(descriptorOf path: String) throws -> pid_t {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let held = descriptors.compactMap(Int32.init).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        }
        try #require(held.count == 1, "one descriptor of \(path): \(held)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, held[0], 3)
        var pid: pid_t = 0
        let arguments = ["/bin/sleep", "30"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let result = posix_spawn(&pid, "/bin/sleep", &actions, nil, &argv, environ)
        try #require(result == 0, "posix_spawn: \(String(cString: strerror(result)))")
        return pid
    }
}
