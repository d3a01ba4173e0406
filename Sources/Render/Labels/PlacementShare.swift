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
    private let lock = NSLock()

    init(key: Key, engine: PlacementEngine, waiting: WaitingPlacements) {
        self.key = key
        self.engine = engine
        self.waiting = waiting
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
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
