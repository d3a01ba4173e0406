import Foundation
import Raster
import Synchronization

/// Runs a tile job: the metatiles of a plan, rendered by worker threads, encoded once per
/// distinct image, written by one writer thread.
///
/// The calling thread walks the plan lazily and feeds a bounded queue; each worker owns its
/// renderer (made on its own thread by `makeRenderer`), renders a metatile, cuts it, and
/// encodes its tiles through the shared `EncodingCache`; a bounded queue carries the encoded
/// tiles to the single writer, which owns the sink. Both queues are bounded, so memory does
/// not grow with the pyramid. Output does not depend on the number of workers or the
/// metatile size: every tile's bytes depend only on the tile. The writer stores the batches in
/// the plan's order (`WriteOrder`), so the same job makes the same file.
public struct TileJob: Sendable {
    public let plan: MetatilePlan
    public let workers: Int
    /// Skip tiles the sink already holds.
    public let resume: Bool
    /// Store no tile whose pixels all have alpha 0 (nothing would show).
    public let skipEmpty: Bool

    public static let maxWorkers = 256

    public init(plan: MetatilePlan, workers: Int, resume: Bool = false, skipEmpty: Bool = false) throws(TilesError) {
        guard workers >= 1, workers <= TileJob.maxWorkers else {
            throw .workersOutOfRange(workers, max: TileJob.maxWorkers)
        }
        self.plan = plan
        self.workers = workers
        self.resume = resume
        self.skipEmpty = skipEmpty
    }

    /// The work for one worker: a block to render and the tiles of it to keep.
    struct WorkItem: Sendable {
        /// Its place among the items handed out, from 0: the order its tiles are written in.
        var sequence = 0
        let metatile: Metatile
        /// nil: every tile of the block.
        let wanted: Set<TileID>?
    }

    /// The tiles of one work item on their way to the writer, with the empty ones left out.
    struct Batch: Sendable {
        var sequence = 0
        let tiles: [EncodedTile]
        /// Tiles of the item not stored because nothing in them would show (`skipEmpty`).
        let empty: Int

        /// Bytes held while it waits for its turn (see `WriteOrder`).
        var heldBytes: Int { tiles.reduce(64) { $0 + $1.data.count + 64 } }
    }

    /// Runs the job to the end, or to the first error (after which the sink keeps what was
    /// committed, so a resumed job continues from there). When `stop` is requested the
    /// metatiles being drawn are finished and written, nothing new starts, the sink keeps
    /// what it has (as after an error) and `TilesError.stopped` is thrown.
    public func run(
        sink: any TileSink, encoder: any TileEncoding, progress: TileProgress = TileProgress(style: .quiet),
        stop: StopRequest? = nil, makeRenderer: @escaping @Sendable () throws -> any MetatileRendering
    ) throws -> TileJobSummary {
        let started = Date()
        progress.start(total: plan.tileCount)
        let work = BoundedQueue<WorkItem>(capacity: workers * 2)
        let written = BoundedQueue<Batch>(capacity: workers * 4)
        let order = WriteOrder<Batch>()
        let empty = Mutex(0)
        // A stop drops the queued metatiles at once; the ones being drawn still arrive.
        let stopKey = stop?.onRequest {
            work.cancel()
            order.cancel()
        }
        defer { if let stop, let stopKey { stop.remove(stopKey) } }
        let failure = Mutex<(any Error)?>(nil)
        let cache = EncodingCache()
        // Nothing new is handed out after a failure. What the workers have drawn is still
        // written (a resumed job skips it), unless the writer itself failed.
        let fail: @Sendable (any Error, _ inWriter: Bool) -> Void = { error, inWriter in
            failure.withLock { if $0 == nil { $0 = error } }
            work.cancel()
            order.cancel()
            if inWriter { written.cancel() }
        }

        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Self.startThread {
                defer { group.leave() }
                do {
                    let renderer = try makeRenderer()
                    while let item = work.pop() {
                        var batch = try Self.renderAndEncode(
                            item, renderer: renderer, encoder: encoder, cache: cache, skipEmpty: skipEmpty)
                        batch.sequence = item.sequence
                        written.push(batch)
                    }
                } catch {
                    fail(error, false)
                }
            }
        }
        let writerGroup = DispatchGroup()
        writerGroup.enter()
        Self.startThread {
            defer { writerGroup.leave() }
            func store(_ batch: Batch) throws {
                try sink.write(batch.tiles)
                empty.withLock { $0 += batch.empty }
                progress.advance(batch.tiles.count + batch.empty)
            }
            do {
                while let batch = written.pop() {
                    for due in order.deliver(batch.sequence, batch, bytes: batch.heldBytes) { try store(due) }
                }
                // After a stop or a worker's failure, the batches that came after one never drawn.
                for batch in order.drain() { try store(batch) }
            } catch {
                fail(error, true)
            }
        }

        var skipped = 0
        var handedOut = 0
        var zoom: Int?
        do {
            for metatile in plan {
                if metatile.z != zoom {
                    zoom = metatile.z
                    progress.stage("rendering zoom \(metatile.z)")
                }
                var item = WorkItem(metatile: metatile, wanted: nil)
                if resume {
                    let stored = try sink.storedTiles(in: metatile)
                    if !stored.isEmpty {
                        skipped += stored.count
                        progress.skip(stored.count)
                        let missing = metatile.tiles.filter { !stored.contains($0) }
                        if missing.isEmpty { continue }
                        // The whole metatile is drawn again, not just the block of missing
                        // tiles: Cairo's anti-aliasing depends (by a few levels) on the image's
                        // extent, and a resumed job must give the bytes of an uninterrupted one.
                        item = WorkItem(metatile: metatile, wanted: Set(missing))
                    }
                }
                item.sequence = handedOut
                // False or dropped: a worker or the writer failed, or a stop.
                guard order.admit(handedOut), work.push(item) else { break }
                handedOut += 1
            }
        } catch {
            fail(error, false)
        }
        work.close()
        group.wait()
        written.close()
        writerGroup.wait()

        if let error = failure.withLock({ $0 }) {
            try? sink.abandon()  // keep what was committed for --resume
            throw error
        }
        let emptyCount = empty.withLock { $0 }
        if let stop, stop.isRequested {
            try sink.abandon()
            throw TilesError.stopped(done: skipped + sink.statistics.tiles + emptyCount, total: plan.tileCount)
        }
        try sink.finish()
        progress.finish()

        let seconds = Date().timeIntervalSince(started)
        let stats = sink.statistics
        return TileJobSummary(
            tiles: stats.tiles, skipped: skipped, empty: emptyCount,
            distinct: stats.newImages ?? cache.counts.encodings, bytes: stats.bytes,
            seconds: seconds, tilesPerSecond: Double(stats.tiles) / max(seconds, 1e-9))
    }

    static func renderAndEncode(
        _ item: WorkItem, renderer: any MetatileRendering, encoder: any TileEncoding,
        cache: EncodingCache, skipEmpty: Bool
    ) throws -> Batch {
        let metatile = item.metatile
        // Errors of cutting and encoding come out of the closure as they are; anything else
        // the renderer throws is a rendering error.
        var cut: Result<Batch, any Error>?
        do {
            try renderer.withRenderedPixels(metatile) { pixels in
                cut = Result { try cutAndEncode(item, pixels, encoder: encoder, cache: cache, skipEmpty: skipEmpty) }
            }
        } catch {
            throw TilesError.render(metatile: metatile.description, message: "\(error)")
        }
        guard let cut else {
            throw TilesError.render(metatile: metatile.description, message: "the renderer returned no image")
        }
        return try cut.get()
    }

    /// Cuts a drawn block into its tiles, one at a time, and encodes each distinct one once.
    private static func cutAndEncode(
        _ item: WorkItem, _ pixels: MetatilePixels, encoder: any TileEncoding, cache: EncodingCache,
        skipEmpty: Bool
    ) throws -> Batch {
        let metatile = item.metatile
        let side = pixels.width / metatile.columns
        guard side > 0, pixels.width == side * metatile.columns, pixels.height == side * metatile.rows else {
            throw TilesError.render(
                metatile: metatile.description,
                message:
                    "the renderer returned a \(pixels.width)x\(pixels.height) image, not \(metatile.columns)x\(metatile.rows) square tiles"
            )
        }
        var result: [EncodedTile] = []
        result.reserveCapacity(metatile.tileCount)
        var empty = 0
        for row in 0..<metatile.rows {
            for column in 0..<metatile.columns {
                let id = TileID(z: metatile.z, x: metatile.x + column, y: metatile.y + row)
                if let wanted = item.wanted, !wanted.contains(id) { continue }
                do {
                    let tile = pixels.tile(x: column * side, y: row * side, side: side)
                    if skipEmpty && tile.isFullyTransparent {
                        empty += 1
                        continue
                    }
                    let encoded = try cache.encoding(of: tile) { try tile.encode(with: encoder) }
                    result.append(EncodedTile(tile: id, data: encoded.data, dataHash: encoded.dataHash))
                } catch {
                    throw TilesError.render(metatile: metatile.description, message: "tile \(id): \(error)")
                }
            }
        }
        return Batch(tiles: result, empty: empty)
    }

    /// A thread with a stack large enough for Cairo and Pango.
    static func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = 8 << 20
        thread.start()
    }
}
