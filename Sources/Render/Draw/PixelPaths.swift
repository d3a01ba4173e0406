import Geodesy
import MapModel

/// The thinned view pixels of each part of the geometries drawn into one block of tiles (see
/// `PathBuilder.pixels`), made once for the block. Each tile of a metatile is drawn under its
/// own clip (see `MapRenderer.draw`), so a country that crosses 64 tiles had its vertices
/// projected and thinned 64 times for its fill and 64 more for its outline. The thinning is
/// decided in global pixels from the geometry alone, never from the tile, so the cached parts
/// are the ones each tile would compute.
///
/// What is kept is bounded twice: a geometry's parts go once the last tile that draws it is
/// done (`finish(tile:)`), and past `budget` estimated bytes parts are made afresh for each
/// tile instead of kept. A whole-world block of a detailed coastline at a low zoom kept some
/// 40 MB of parts for its 16 tiles, a tenth of that for a tenth of the coastline.
final class PixelPaths {
    /// A geometry of a feature: the feature's position in its layer's content for the block
    /// (not its index in the file, which a source need not keep unique) and the geometry's
    /// position in the feature.
    struct Key: Hashable {
        let feature: Int
        let geometry: Int
    }

    /// By slot: nil until the slot is first asked for, then the last tile that draws it (see
    /// `lastTile`) and the parts kept so far, by geometry. An array, not a dictionary keyed by
    /// `Key`: every tile of a block asks for each of its features, and hashing the key and
    /// probing a table of a whole block's features cost 3% of the GSHHG shorelines' time at
    /// zoom 5.
    private var slots: [Slot?] = []
    private struct Slot {
        let last: Int?
        var geometries: [[[PlanePoint]]?] = []
    }
    /// The last tile (in drawing order) that draws the feature in a slot, or nil when its parts
    /// are not kept: those of a feature drawn once (in one tile, by one pass) would only hold
    /// memory. `Int.max`: kept for the whole block.
    private let lastTile: (Int) -> Int?
    /// The keys kept, by the last tile that needs them.
    private var byLastTile: [Int: [Key]] = [:]
    /// The most estimated bytes of parts kept at once.
    let budget: Int
    /// Estimated bytes of the parts kept now, and the most kept at once.
    private(set) var bytes = 0
    private(set) var mostBytes = 0
    /// Geometries whose parts were kept since the block began (whether or not still kept).
    private(set) var keptCount = 0

    /// Past this, a block's parts are made again by each tile that draws them (the same
    /// parts: only time is spent).
    static let defaultBudget = 8 << 20
    /// A dictionary entry and the outer array's share of one geometry.
    static let entryBytes = 64

    init(budget: Int = PixelPaths.defaultBudget, lastTile: @escaping (Int) -> Int? = { _ in Int.max }) {
        self.budget = budget
        self.lastTile = lastTile
    }

    /// Geometries whose parts are kept now.
    private(set) var count = 0

    /// The parts under `key`, made by `make` the first time.
    func parts(_ key: Key, _ make: () -> [[PlanePoint]]) -> [[PlanePoint]] {
        let slot = key.feature
        if slot >= slots.count { slots.append(contentsOf: repeatElement(nil, count: slot + 1 - slots.count)) }
        if slots[slot] == nil { slots[slot] = Slot(last: lastTile(slot)) }
        // Most features of a detailed layer lie in one tile: nothing is kept for them.
        guard let last = slots[slot]!.last else { return make() }
        let g = key.geometry
        if g < slots[slot]!.geometries.count, let known = slots[slot]!.geometries[g] { return known }
        let made = make()
        let cost = PixelPaths.bytes(of: made)
        guard bytes + cost <= budget else { return made }
        if g >= slots[slot]!.geometries.count {
            slots[slot]!.geometries.append(contentsOf: repeatElement(nil, count: g + 1 - slots[slot]!.geometries.count))
        }
        slots[slot]!.geometries[g] = made
        count += 1
        bytes += cost
        mostBytes = max(mostBytes, bytes)
        keptCount += 1
        if last != Int.max { byLastTile[last, default: []].append(key) }
        return made
    }

    /// Drops the parts no tile after `tile` (in drawing order) draws.
    func finish(tile: Int) {
        guard let done = byLastTile.removeValue(forKey: tile) else { return }
        for key in done {
            guard let gone = slots[key.feature]?.geometries[key.geometry] else { continue }
            slots[key.feature]!.geometries[key.geometry] = nil
            count -= 1
            bytes -= PixelPaths.bytes(of: gone)
        }
    }

    /// Estimated heap bytes of one geometry's parts, with its entry.
    static func bytes(of parts: [[PlanePoint]]) -> Int {
        parts.reduce(entryBytes + MemoryCost.array(parts.count, of: [PlanePoint].self)) {
            $0 + MemoryCost.array($1.count, of: PlanePoint.self)
        }
    }
}
