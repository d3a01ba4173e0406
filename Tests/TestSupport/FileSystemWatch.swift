import Foundation
import Glibc

/// Changes under a folder as the kernel reports them (inotify), so that a test can wait for a
/// job's progress instead of sleeping: it re-checks after each change, never after a delay.
public final class FileSystemWatch {
    public let root: String
    private let descriptor: Int32
    private var watched: Set<String> = []

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Watches `root` (which must exist) and every folder that appears under it.
    public init(_ root: String) throws {
        self.root = root
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw Failure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        try watchNewFolders()
    }

    deinit {
        close(descriptor)
    }

    /// Checks `condition` now and after every change under `root` until it holds (true) or
    /// `job` exits (false: it finished before the condition was seen). Throws after
    /// `maxChanges` changes without it, or when nothing at all changes for two minutes while
    /// the job runs: a watchdog against a hung job, which a healthy job never meets (it
    /// writes continually).
    public func wait(for job: MeridianJob, maxChanges: Int = 100_000, until condition: () throws -> Bool) throws
        -> Bool
    {
        for _ in 0..<maxChanges {
            try watchNewFolders()
            if try condition() { return true }
            if job.ended { return false }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: job.errorDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, 120_000)
            guard ready > 0 else {
                if ready < 0 && errno == EINTR { continue }
                throw Failure(description: "nothing changed under \(root) for two minutes: \(job.arguments) hangs?")
            }
            if descriptors[0].revents != 0 { discardEvents() }
            if descriptors[1].revents != 0 { job.drainErrors() }
        }
        throw Failure(description: "\(maxChanges) changes under \(root) without the awaited progress")
    }

    /// What changed does not matter (the condition looks for itself), only that something did.
    private func discardEvents() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }

    /// inotify watches one folder, not its subfolders: add each new one as it appears.
    private func watchNewFolders() throws {
        for folder in [root] + (try FileTree.liveFolders(under: root)).map({ root + "/" + $0 })
        where !watched.contains(folder) {
            let mask = UInt32(IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
            guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
                // A staging folder may be gone again before it is watched; it had nothing to say.
                if errno == ENOENT { continue }
                throw Failure(description: "inotify_add_watch \(folder): \(String(cString: strerror(errno)))")
            }
            watched.insert(folder)
        }
    }
}
