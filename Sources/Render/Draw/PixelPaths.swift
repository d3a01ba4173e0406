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

    private var parts: [Key: [[PlanePoint]]] = [:]
    /// Whether the parts of the feature in a slot are kept: those of a feature drawn once (in
    /// one tile, by one pass) would only hold memory.
    private let keeps: (Int) -> Bool

    init(keeping keeps: @escaping (Int) -> Bool = { _ in true }) {
        self.keeps = keeps
    }

    /// Geometries whose parts are kept.
    var count: Int { parts.count }

    /// The parts under `key`, made by `make` the first time.
    func parts(_ key: Key, _ make: () -> [[PlanePoint]]) -> [[PlanePoint]] {
        // Most features of a detailed layer lie in one tile: asking `keeps` first spares them
        // the hashing of a lookup that cannot succeed.
        guard keeps(key.feature) else { return make() }
        if let known = parts[key] { return known }
        let made = make()
        parts[key] = made
        return made
    }
}
