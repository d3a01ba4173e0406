import Dispatch
import Foundation
import Raster
import Synchronization

/// Identical tiles (open ocean, empty land) are encoded once: each cut tile's pixels are
/// hashed in the renderer's own layout (before any conversion), and a tile whose hash and
/// pixels match a recent one reuses its encoding.
///
/// The cache is shared by the workers. A hash another worker is encoding right now is waited
/// for rather than encoded twice (at low zooms every worker meets the ocean at once). Entries
/// keep their pixels to verify a match byte for byte, so the cache is bounded by bytes and
/// forgets the least recently used entries; the tiles that repeat are used all the time.
///
/// Tiles are encoded where they lie in the metatile, and a tile's pixels are copied only when
/// its hash was seen before: most tiles that are not of one colour never repeat (a tile crossed
/// by grid lines, a coast), and copying each of them (256 KB) to keep it cost more CPU time
/// than its few instructions showed. The price is one more encoding of each tile that does
/// repeat: its second sighting is encoded and kept, and later ones reuse it.
final class EncodingCache: Sendable {
    struct Encoded: Sendable {
        let data: [UInt8]
        /// Hash of `data`: the stored image's identity (MBTiles `tile_id`).
        let dataHash: ContentHash
    }

    /// An encoding under way, which other workers with the same pixels wait for. Each waiter
    /// that wakes signals again, so one `finish` wakes them all.
    private final class InFlight: Sendable {
        private let done = DispatchSemaphore(value: 0)

        func wait() {
            done.wait()
            done.signal()
        }

        func finish() { done.signal() }
    }

    private struct Entry {
        /// The tile's bytes in the renderer's layout; empty while `inFlight` is encoding it,
        /// and for a one-colour tile, which is known by its key.
        var pixels: [UInt8]
        /// nil while `inFlight` is encoding it.
        var encoded: Encoded?
        var inFlight: InFlight?
        var lastUse: Int
    }

    /// What an entry is found by.
    private enum Key: Hashable {
        /// The hash of some of a tile's rows (`TilePixels.hash`); reuse needs equal pixels.
        case rows(ContentHash)
        /// The hash of all of them, when another image already has the tile's `rows` key.
        case wholeTile(ContentHash)
        /// A tile of one colour, known without hashing: the same colour and size give the
        /// same bytes, so no pixels are kept or compared, and it is never evicted (a map has
        /// a few flat colours; `maxSolids` keeps a gradient from growing the table).
        case solid(pixel: UInt32, side: Int)

        var isSolid: Bool {
            if case .solid = self { return true }
            return false
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Pixels kept by the hashed entries, claimed ones included.
        var storedBytes = 0
        var solids = 0
        /// Hashed keys met once and not kept: meeting one again admits it.
        var seen: Set<Key> = []
        var clock = 0
        var encodings = 0
        var reuses = 0
        /// Tiles whose pixels were copied to be kept.
        var copies = 0

        /// Whether a new entry under `key`, keeping `bytes` of pixels, fits the budgets.
        func admits(_ key: Key, bytes: Int, capacity: Int) -> Bool {
            key.isSolid ? solids < EncodingCache.maxSolids : bytes <= capacity
        }

        /// Counts an entry in (`sign` 1) or out (-1) of the budgets.
        mutating func account(_ key: Key, bytes: Int, sign: Int) {
            if key.isSolid { solids += sign } else { storedBytes += sign * bytes }
        }
    }

    /// What a worker does with a tile, decided under the lock.
    private enum Step {
        case reuse(Encoded)
        case wait(InFlight)
        /// Encode it; with an `InFlight` when this worker claimed the key for the cache.
        case encode(InFlight?)
        /// Another image has this key: look again under the hash of the whole tile.
        case hashWholeTile
    }

    private let state = Mutex(State())
    let capacityBytes: Int

    init(capacityBytes: Int = 8 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The encoding of `tile`: from the cache when the same pixels were seen recently,
    /// otherwise from `encode` (called without the lock held; it reads the tile in place) and
    /// remembered. Pixels are
    /// compared as they are laid out, so a job's renderer must give one layout throughout
    /// (a job has one kind of renderer).
    func encoding(of tile: TilePixels, encode: () throws -> [UInt8]) throws -> Encoded {
        var key = tile.solidPixel.map { Key.solid(pixel: $0, side: tile.side) } ?? .rows(tile.hash)
        let byteCount = tile.rowBytes * tile.side
        while true {
            let step = state.withLock { state -> Step in
                state.clock += 1
                if var entry = state.entries[key] {
                    // Its pixels are kept once it is encoded; until then, wait and look again.
                    guard let encoded = entry.encoded else { return .wait(entry.inFlight!) }
                    switch key {
                    case .solid: break
                    case .rows: guard tile.equals(entry.pixels) else { return .hashWholeTile }
                    // A different image under the same hash of the whole tile (rare as a
                    // collision of XXH3-128) is encoded apart, not cached.
                    case .wholeTile: guard tile.equals(entry.pixels) else { return .encode(nil) }
                    }
                    entry.lastUse = state.clock
                    state.entries[key] = entry
                    state.reuses += 1
                    return .reuse(encoded)
                }
                guard state.admits(key, bytes: byteCount, capacity: capacityBytes) else { return .encode(nil) }
                if !key.isSolid && state.seen.insert(key).inserted {
                    // Met for the first time: most such tiles never repeat, so nothing is kept.
                    if state.seen.count > EncodingCache.maxSeen { state.seen = [key] }
                    return .encode(nil)
                }
                state.seen.remove(key)
                let claim = InFlight()
                state.entries[key] = Entry(pixels: [], inFlight: claim, lastUse: state.clock)
                state.account(key, bytes: byteCount, sign: 1)
                return .encode(claim)
            }
            switch step {
            case .reuse(let encoded):
                return encoded
            case .wait(let other):
                other.wait()  // then look again: it is cached now, or its encoding failed
            case .encode(let claim):
                return try encodeNow(tile, key: key, claim: claim, encode: encode)
            case .hashWholeTile:
                key = .wholeTile(tile.wholeHash)
            }
        }
    }

    /// Encodes `tile`; a worker that claimed `key` (`claim`) fills its entry, or removes it
    /// when the encoding fails, and wakes the workers waiting for it either way.
    private func encodeNow(
        _ tile: TilePixels, key: Key, claim: InFlight?, encode: () throws -> [UInt8]
    ) throws -> Encoded {
        defer { claim?.finish() }
        let result: Encoded
        let byteCount = tile.rowBytes * tile.side
        do {
            let data = try encode()
            result = Encoded(data: data, dataHash: ContentHash(of: data))
        } catch {
            if let claim {
                state.withLock { state in
                    guard let entry = state.entries[key], entry.inFlight === claim else { return }
                    state.entries[key] = nil
                    state.account(key, bytes: byteCount, sign: -1)
                }
            }
            throw error
        }
        // What later tiles are compared with, for a kept tile; copied outside the lock.
        let pixels = claim != nil && !key.isSolid ? tile.copy() : []
        state.withLock { state in
            state.encodings += 1
            if !pixels.isEmpty { state.copies += 1 }
            if let claim, var entry = state.entries[key], entry.inFlight === claim {
                entry.pixels = pixels
                entry.encoded = result
                entry.inFlight = nil
                state.entries[key] = entry
                EncodingCache.evict(&state, above: capacityBytes)
            }
        }
        return result
    }

    static let maxSolids = 4096
    /// Hashes of tiles met once remembered at most (some 40 bytes each, 160 KB in all): past
    /// it they are forgotten all at once, and a tile that repeats only further apart is encoded
    /// each time (the pixels kept, 8 MB by default, held 32 tiles of 256 KB anyway).
    static let maxSeen = 4096

    /// Drops finished hashed entries, least recently used first, until the pixels fit the
    /// budget.
    ///
    /// The oldest is found by one pass over the entries, not by filtering them into a new
    /// dictionary: a tile crossed by grid lines is rarely of one colour, so nearly every tile
    /// of a grid pyramid evicts one, and rehashing every entry (the solid ones too) for it
    /// cost 17 M instructions of the New York MGRS pyramid more than this pass.
    private static func evict(_ state: inout State, above capacity: Int) {
        while state.storedBytes > capacity {
            var victim: (key: Key, lastUse: Int, bytes: Int)?
            for (key, entry) in state.entries where entry.encoded != nil && !key.isSolid {
                if victim.map({ entry.lastUse < $0.lastUse }) ?? true {
                    victim = (key, entry.lastUse, entry.pixels.count)
                }
            }
            guard let victim else { return }
            state.entries[victim.key] = nil
            state.storedBytes -= victim.bytes
        }
    }

    var counts: (encodings: Int, reuses: Int, copies: Int) {
        state.withLock { ($0.encodings, $0.reuses, $0.copies) }
    }
}
