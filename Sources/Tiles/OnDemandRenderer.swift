import Dispatch
import Foundation
import Synchronization

/// Renders metatiles when they are asked for (`meridian serve`), through the same workers,
/// renderers and encoders as a tile job, so a tile has the bytes `meridian tiles` writes for it.
///
/// Each metatile is rendered once however many callers ask for its tiles at the same time:
/// the first caller queues it, later ones wait for that render. `workers` threads each own
/// a renderer; the queue in front of them is bounded, so a burst of requests waits instead of
/// piling up work.
public final class OnDemandRenderer: Sendable {
    public let pyramid: TilePyramid
    public let metatileSize: Int
    private let encoder: any TileEncoding
    private let skipEmpty: Bool
    private let queue: BoundedQueue<Task>
    private let inFlight = Mutex<[Metatile: Render]>([:])
    private let threads = DispatchGroup()

    /// The tiles of one metatile: each tile's bytes, or nil when it is empty (`skipEmpty`).
    public typealias Tiles = [TileID: EncodedTile?]

    /// One render, which every caller that asked for it waits on.
    private final class Render: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let result = Mutex<Result<Tiles, any Error>?>(nil)

        func finish(_ outcome: Result<Tiles, any Error>) {
            result.withLock { $0 = outcome }
            done.signal()
        }

        func wait() throws -> Tiles {
            done.wait()
            done.signal()  // the next waiter
            return try result.withLock { $0! }.get()
        }
    }

    private struct Task: Sendable {
        let metatile: Metatile
        let render: Render
    }

    public init(
        pyramid: TilePyramid, metatileSize: Int, workers: Int, encoder: any TileEncoding, skipEmpty: Bool,
        makeRenderer: @escaping @Sendable () throws -> any MetatileRendering
    ) throws(TilesError) {
        guard workers >= 1, workers <= TileJob.maxWorkers else {
            throw .workersOutOfRange(workers, max: TileJob.maxWorkers)
        }
        _ = try MetatilePlan(pyramid: pyramid, size: metatileSize)  // checks the size
        self.pyramid = pyramid
        self.metatileSize = metatileSize
        self.encoder = encoder
        self.skipEmpty = skipEmpty
        let queue = BoundedQueue<Task>(capacity: workers * 4)
        self.queue = queue
        let cache = EncodingCache()
        for _ in 0..<workers {
            threads.enter()
            TileJob.startThread { [threads] in
                defer { threads.leave() }
                var renderer: (any MetatileRendering)?
                while let task = queue.pop() {
                    task.render.finish(
                        Result {
                            if renderer == nil { renderer = try makeRenderer() }
                            let batch = try TileJob.renderAndEncode(
                                TileJob.WorkItem(metatile: task.metatile, wanted: nil), renderer: renderer!,
                                encoder: encoder, cache: cache, skipEmpty: skipEmpty)
                            var tiles = Tiles()
                            for tile in task.metatile.tiles { tiles[tile] = .some(nil) }
                            for tile in batch.tiles { tiles[tile.tile] = tile }
                            return tiles
                        })
                }
            }
        }
    }

    /// The metatile that holds `tile`: the one a job over the pyramid renders it in (aligned
    /// to multiples of the metatile size, cut at the pyramid's edges); nil outside the pyramid.
    public func metatile(containing tile: TileID) -> Metatile? {
        guard let range = pyramid.ranges.first(where: { $0.z == tile.z }), tile.x >= range.minX, tile.x <= range.maxX,
            tile.y >= range.minY, tile.y <= range.maxY
        else { return nil }
        return MetatilePlan.Grid(range: range, size: metatileSize).metatile(
            tile.x / metatileSize, tile.y / metatileSize)
    }

    /// What `tiles(of:stored:store:)` gives: what `stored` found, or the metatile's tiles,
    /// rendered for this caller or by the render another caller started.
    public enum Outcome<Found> {
        case stored(Found)
        case rendered(Tiles)
        case waited(Tiles)
    }

    /// What a caller does: take what is stored, wait for a render in flight, or start one.
    private enum Step<Found> {
        case found(Found)
        case wait(Render)
        case start(Render)
    }

    /// The tiles of `metatile`, rendered now or by the render another caller started.
    /// The caller that starts the render runs `store` before the render stops being in
    /// flight. `stored` is asked under the same lock before a render starts, so a caller that
    /// looked for its tile just before another caller's `store` put it there, and arrives here
    /// just after that render left, finds it instead of rendering the metatile again.
    public func tiles<Found>(
        of metatile: Metatile, stored: () -> Found?, store: (Tiles) throws -> Void = { _ in }
    ) throws -> Outcome<Found> {
        let step = inFlight.withLock { running -> Step<Found> in
            if let render = running[metatile] { return .wait(render) }
            if let found = stored() { return .found(found) }
            let render = Render()
            running[metatile] = render
            return .start(render)
        }
        switch step {
        case .found(let found):
            return .stored(found)
        case .wait(let render):
            return .waited(try render.wait())
        case .start(let render):
            defer { inFlight.withLock { _ = $0.removeValue(forKey: metatile) } }
            if !queue.push(Task(metatile: metatile, render: render)) {
                render.finish(
                    .failure(TilesError.render(metatile: metatile.description, message: "the server is stopping")))
            }
            let tiles = try render.wait()
            try store(tiles)
            return .rendered(tiles)
        }
    }

    /// Lets the workers finish what is queued, then ends them.
    public func stop() {
        queue.close()
        threads.wait()
    }
}
