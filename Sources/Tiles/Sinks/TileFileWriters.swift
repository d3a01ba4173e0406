import Dispatch
import Foundation
import Raster
import Synchronization

/// Writes finished tile files from several threads, for `DirectorySink`.
///
/// Creating a small file waits on the filesystem (open, rename, the folder's metadata) far
/// longer than writing its bytes: issue 18 measured 5,461 tile files taking 1.85 s from one
/// thread and 0.31 s from four. From one thread the directory sink fell behind the renderers;
/// from several the waits overlap.
///
/// A new tile is written unnamed in its own folder and linked under its name when complete
/// (`AtomicFile.createNew`): the threads do not meet in one staging folder, and nothing is
/// renamed across folders (a lock for the whole filesystem: docs/performance.md). A tile
/// that already has a file (a job run again over its output), and every tile on a filesystem
/// without unnamed files, is an `AtomicFile` staged in `staging` and renamed into place.
/// Either way a tile exists whole or not at all whatever order the threads finish in, and a
/// resumed job can trust every file it finds.
/// The queue is bounded, so a slow disk holds the job back instead of filling memory. The
/// first failed write is kept and stops the others: `submit` and `finish` throw it, so a tile
/// that was not written is never reported as written.
public final class TileFileWriters: Sendable {
    private struct Pending: Sendable {
        let path: String
        let data: [UInt8]
    }

    private struct State {
        var stats = SinkStatistics()
        var error: TilesError?
    }

    private let queue: BoundedQueue<Pending>
    private let state = Mutex(State())
    private let running = DispatchGroup()
    /// Cleared when the filesystem turns out to have no unnamed files.
    private let unnamedFiles = Atomic(true)
    /// Where the temporary files live until they are renamed (same filesystem as the tiles).
    let staging: String
    let threads: Int

    /// Enough to hide the latency measured in issue 18 (four threads: 6x faster than one).
    public static let defaultThreads = 4

    init(threads: Int, staging: String) {
        precondition(threads >= 1)
        self.threads = threads
        self.staging = staging
        // A few files per thread keeps every thread busy; more would only hold memory.
        queue = BoundedQueue(capacity: threads * 8)
        for _ in 0..<threads {
            running.enter()
            Thread { [self] in
                defer { running.leave() }
                drain()
            }.start()
        }
    }

    /// Queues one file, waiting while the queue is full. Throws the first failed write.
    func submit(path: String, data: [UInt8]) throws(TilesError) {
        if let error = state.withLock({ $0.error }) { throw error }
        if !queue.push(Pending(path: path, data: data)) {
            throw state.withLock { $0.error } ?? .io(path: path, message: "the tile writers have stopped")
        }
    }

    /// Waits until every queued file is written (or the first failure), then throws that
    /// failure. The threads end; calling it again only repeats the outcome.
    func finish() throws(TilesError) {
        queue.close()
        running.wait()
        if let error = state.withLock({ $0.error }) { throw error }
    }

    /// Tiles and bytes written so far (renamed into place, not merely queued).
    var statistics: SinkStatistics {
        state.withLock { $0.stats }
    }

    private func write(_ file: Pending) throws(FileError) {
        if unnamedFiles.load(ordering: .relaxed) {
            switch try AtomicFile.createNew(path: file.path, bytes: file.data) {
            case .written: return
            case .exists: break
            case .unsupported: unnamedFiles.store(false, ordering: .relaxed)
            }
        }
        let output = try AtomicFile(path: file.path, temporaryFolder: staging)
        try output.append(file.data)
        try output.commit()
    }

    private func drain() {
        while let file = queue.pop() {
            do throws(FileError) {
                try write(file)
                state.withLock { state in
                    state.stats.tiles += 1
                    state.stats.bytes += file.data.count
                }
            } catch {
                state.withLock { state in
                    if state.error == nil {
                        state.error = .io(path: error.path, message: "cannot write the tile (\(error.reason))")
                    }
                }
                queue.cancel()  // the job fails: the other threads stop too
            }
        }
    }
}
