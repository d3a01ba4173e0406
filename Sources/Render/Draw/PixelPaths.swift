import Geodesy

/// The thinned view pixels of each part of the geometries drawn into one block of tiles (see
/// `PathBuilder.pixels`), made once for the block. Each tile of a metatile is drawn under its
/// own clip (see `MapRenderer.draw`), so a country that crosses 64 tiles had its vertices
/// projected and thinned 64 times for its fill and 64 more for its outline. The thinning is
/// decided in global pixels from the geometry alone, never from the tile, so the cached parts
/// are the ones each tile would compute.
final class PixelPaths {
    /// A geometry of a feature: the feature's position in its layer's content for the block
    /// (not its index in the file, which a source need not keep unique) and the geometry's
    /// position in the feature.
    struct Key: Hashable {
        let feature: Int
        let geometry: Int
    }

    /// By slot: nil until the slot is first asked for, then whether its parts are kept and
    /// those made so far, by geometry. An array, not a dictionary keyed by `Key`: every tile
    /// of a block asks for each of its features, and hashing the key and probing a table of
    /// a whole block's features cost 3% of the GSHHG shorelines' time at zoom 5.
    private var slots: [Slot?] = []
    private struct Slot {
        let keeps: Bool
        var geometries: [[[PlanePoint]]?] = []
    }
    /// Whether the parts of the feature in a slot are kept: those of a feature drawn once (in
    /// one tile, by one pass) would only hold memory.
    private let keeps: (Int) -> Bool

    init(keeping keeps: @escaping (Int) -> Bool = { _ in true }) {
        self.keeps = keeps
    }

    /// Geometries whose parts are kept.
    private(set) var count = 0

    /// The parts under `key`, made by `make` the first time.
    func parts(_ key: Key, _ make: () -> [[PlanePoint]]) -> [[PlanePoint]] {
        let slot = key.feature
        if slot >= slots.count { slots.append(contentsOf: repeatElement(nil, count: slot + 1 - slots.count)) }
        if slots[slot] == nil { slots[slot] = Slot(keeps: keeps(slot)) }
        // Most features of a detailed layer lie in one tile: nothing is kept for them.
        guard slots[slot]!.keeps else { return make() }
        let g = key.geometry
        if g < slots[slot]!.geometries.count, let known = slots[slot]!.geometries[g] { return known }
        let made = make()
        if g >= slots[slot]!.geometries.count {
            slots[slot]!.geometries.append(contentsOf: repeatElement(nil, count: g + 1 - slots[slot]!.geometries.count))
        }
        slots[slot]!.geometries[g] = made
        count += 1
        return made
    }
}
