import Foundation
import Geodesy
import MapModel
import Synchronization

/// One resolution's label placement (the engine and the placements waiting for it), shared
/// by the workers of one map behind a lock.
///
/// Placement depends on the candidates alone, so every worker computes the same levels for
/// the same chunks. Each worker used to compute them in an engine of its own: at the zooms
/// where one question reaches the whole world (zoom 4-6 of a world pyramid) both workers held
/// every place of the world and placed each of them, and at deeper zooms both computed the
/// same rows around their neighbouring metatiles. A worker asks with its own label space
/// (`PlacementEngine.source`, `WaitingPlacements.read`: its readers and text engine), which
/// makes the same candidates; what it draws stays its own (`LabelSpace.drawn`).
final class PlacementShare: @unchecked Sendable {
    /// What makes two label spaces place alike (see `LabelSpace.serves`).
    struct Key: Equatable {
        let resolution: Double
        let dpi: Double
        let plane: String?
        let edge: Rect?
        let area: Rect?
    }

    let key: Key
    /// Read and changed only under `withLock`.
    let engine: PlacementEngine
    let waiting: WaitingPlacements
    /// One lock for all the shares of the process: placement at different resolutions takes
    /// turns too. Each of zoom 0-3 of a pyramid is one metatile whose view holds the whole
    /// world, so two workers placed two zooms at once, each with every place and its buckets
    /// (the whole map of `make bench-large` peaked at 193-205 MB over zoom 0-3 from run to
    /// run); in turn, the first has compacted its candidates and given the pages back before
    /// the second begins (193 MB, run after run, for some 3 s more of its 17). Elsewhere the
    /// workers share one resolution, and so one share, but at the change of zoom. Recursive,
    /// so that a holder asking another share (none does now) would not deadlock.
    private static let lock = NSRecursiveLock()

    init(key: Key, engine: PlacementEngine, waiting: WaitingPlacements) {
        self.key = key
        self.engine = engine
        self.waiting = waiting
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        PlacementShare.lock.lock()
        defer { PlacementShare.lock.unlock() }
        return try body()
    }

    /// The share of `map`'s workers for `key`: one that a worker still holds, or `make()`.
    static func shared(by map: LoadedMap, key: Key, make: () -> PlacementShare) -> PlacementShare {
        shares.withLock { shares in
            // Shares no worker holds any more (their resolution done) are let go as others come.
            shares.removeAll { $0.map == nil || $0.share == nil }
            if let entry = shares.first(where: { $0.map === map && $0.share?.key == key }), let share = entry.share {
                return share
            }
            let share = make()
            shares.append(Entry(map: map, share: share))
            return share
        }
    }

    /// Weak: a share lives as long as the label spaces that hold it.
    private struct Entry {
        weak var map: LoadedMap?
        weak var share: PlacementShare?
    }

    private static let shares = Mutex<[Entry]>([])
}
