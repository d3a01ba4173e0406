import Synchronization
import Tiles

/// The tiles served most recently, kept in memory up to `capacityBytes` of tile data; the
/// least recently used go first. Empty tiles are remembered too (as such), so a request for
/// one does not render its metatile again while it is remembered.
final class TileMemoryCache: Sendable {
    struct Key: Hashable {
        let layer: TileLayer
        let tile: TileID
    }

    private struct Entry {
        let tile: EncodedTile?
        var lastUse: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock = 0
    }

    /// An empty tile costs this much of the capacity: the key and the entry.
    static let entryOverhead = 64

    let capacityBytes: Int
    private let state = Mutex(State())

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    /// The tile (`.some(nil)` for a remembered empty one), nil when not remembered.
    func get(_ key: Key) -> EncodedTile?? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return .some(entry.tile)
        }
    }

    func put(_ key: Key, _ tile: EncodedTile?) {
        let cost = (tile?.data.count ?? 0) + TileMemoryCache.entryOverhead
        guard cost <= capacityBytes else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] {
                state.bytes -= (old.tile?.data.count ?? 0) + TileMemoryCache.entryOverhead
            }
            state.entries[key] = Entry(tile: tile, lastUse: state.clock)
            state.bytes += cost
            guard state.bytes > capacityBytes else { return }
            // Over capacity: drop the older half of the entries (one sort for many puts).
            let byAge = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (key, entry) in byAge.prefix(max(1, byAge.count / 2)) {
                state.entries[key] = nil
                state.bytes -= (entry.tile?.data.count ?? 0) + TileMemoryCache.entryOverhead
            }
        }
    }

    var storedBytes: Int { state.withLock { $0.bytes } }
}
