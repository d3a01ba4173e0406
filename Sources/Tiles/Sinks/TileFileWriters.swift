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
/// (`AtomicFile.createNew`), relative to the folder's open descriptor (`OpenFolder`, opened
/// once for all the tiles of a column): the threads do not meet in one staging folder,
/// nothing is renamed across folders (a lock for the whole filesystem: docs/performance.md),
/// and no path is walked per tile. A tile
/// that already has a file (a job run again over its output), and every tile on a filesystem
/// without unnamed files, is an `AtomicFile` staged in `staging` and renamed into place.
/// Either way a tile exists whole or not at all whatever order the threads finish in, and a
/// resumed job can trust every file it finds.
/// Byte-identical small tiles (plain ocean or land: two thirds of a world pyramid's tiles at
/// zoom 0-6) are hard links of the first such file written (`twins`), as MapProxy links its
/// single-colour tiles: a link allocates no inode and no block, which is most of what creating
/// a small file costs, and on ext4 right after a large delete that cost grows to a millisecond
/// a file. Every file still holds its tile's bytes; nothing writes into a tile in place (a tile
/// written again replaces its name by a rename), so the names stay independent. A filesystem
/// without hard links gets files of their own.
/// The threads take whole batches (a metatile's tiles), not single tiles: one hand-off, and
/// one thread woken, per batch instead of per tile (issue 18 measured a futex call a tile).
/// The queue is bounded, so a slow disk holds the job back instead of filling memory. The
/// first failed write is kept and stops the others: `submit` and `finish` throw it, so a tile
/// that was not written is never reported as written.
public final class TileFileWriters: Sendable {
    /// One tile's file: `name` in `folder`.
    struct Pending: Sendable {
        let folder: OpenFolder
        let name: String
        let data: [UInt8]

        var path: String { folder.path + "/" + name }
    }

    private struct State {
        var stats = SinkStatistics()
        var error: TilesError?
    }

    private let queue: BoundedQueue<[Pending]>
    private let state = Mutex(State())
    private let running = DispatchGroup()
    /// Cleared when the filesystem turns out to have no unnamed files.
    private let unnamedFiles = Atomic(true)
    /// The first file written with each small content, for the tiles with the same bytes.
    private let twins = Mutex([TwinKey: String]())
    /// Cleared when the filesystem turns out to have no hard links.
    private let hardLinks = Atomic(true)
    /// Tiles of at most this many bytes are linked (a plain tile is some 100 bytes)...
    static let twinBytes = 1024
    /// ...and at most this many contents are remembered (some 4 MB at most), whatever the pyramid.
    static let twinCapacity = 4096
    /// Where the temporary files live until they are renamed (same filesystem as the tiles).
    let staging: String
    let threads: Int

    /// Enough to hide the latency measured in issue 18 (four threads: 6x faster than one).
    public static let defaultThreads = 4

    init(threads: Int, staging: String) {
        precondition(threads >= 1)
        self.threads = threads
        self.staging = staging
        // A batch waiting per thread keeps every thread busy; more would only hold memory.
        queue = BoundedQueue(capacity: threads)
        for _ in 0..<threads {
            running.enter()
            Thread { [self] in
                defer { running.leave() }
                drain()
            }.start()
        }
    }

    /// Queues a batch of files, waiting while the queue is full. Throws the first failed write.
    func submit(_ files: [Pending]) throws(TilesError) {
        if let error = state.withLock({ $0.error }) { throw error }
        guard let first = files.first else { return }
        if !queue.push(files) {
            throw state.withLock { $0.error } ?? .io(path: first.path, message: "the tile writers have stopped")
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
        // Small tiles are looked up by their bytes, while the filesystem takes links.
        let key = file.data.count <= Self.twinBytes && hardLinks.load(ordering: .relaxed) ? TwinKey(file.data) : nil
        var replacesTwin = false
        if let key, let twin = twins.withLock({ $0[key] }) {
            switch file.folder.link(twin, as: file.name) {
            case .linked: return
            case .exists: break  // a tile already there (a job run again over its output): replaced below
            case .unsupported: hardLinks.store(false, ordering: .relaxed)
            case .failed: replacesTwin = true  // this file becomes the one linked to
            }
        }
        try writeFile(file)
        if let key {
            twins.withLock { twins in
                if replacesTwin || (twins[key] == nil && twins.count < Self.twinCapacity) {
                    twins[key] = file.path
                }
            }
        }
    }

    private func writeFile(_ file: Pending) throws(FileError) {
        if unnamedFiles.load(ordering: .relaxed) {
            switch try AtomicFile.createNew(named: file.name, in: file.folder, bytes: file.data) {
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
        while let files = queue.pop() {
            var written = SinkStatistics()
            var failure: FileError?
            for file in files {
                do throws(FileError) { try write(file) } catch {
                    failure = error
                    break
                }
                written.tiles += 1
                written.bytes += file.data.count
            }
            state.withLock { state in
                state.stats.tiles += written.tiles
                state.stats.bytes += written.bytes
                if let failure, state.error == nil {
                    state.error = .io(path: failure.path, message: "cannot write the tile (\(failure.reason))")
                }
            }
            if failure != nil { queue.cancel() }  // the job fails: the other threads stop too
        }
    }
}

/// A small tile's bytes as a dictionary key, hashed in one call over the bytes: an array of
/// bytes hashes element by element, some ten instructions a byte (13 M of the New York MGRS
/// pyramid, whose grid lines make most tiles small but not of one colour).
private struct TwinKey: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: TwinKey, b: TwinKey) -> Bool {
        guard a.bytes.count == b.bytes.count else { return false }
        return a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // both empty
                return memcmp(p, q, x.count) == 0
            }
        }
    }
}
