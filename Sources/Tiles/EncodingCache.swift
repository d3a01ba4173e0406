import Foundation
import Raster

/// Identical tiles (open ocean, empty land) are encoded once: each cut tile's pixels are
/// hashed, and a tile whose hash and pixels match a recent one reuses its encoding.
///
/// The cache is shared by the workers. A hash another worker is encoding right now is waited
/// for rather than encoded twice (at low zooms every worker meets the ocean at once). Entries
/// keep their pixels to verify a match byte for byte, so the cache is bounded by bytes and
/// forgets the least recently used entries; the tiles that repeat are used all the time.
final class EncodingCache: @unchecked Sendable {
    struct Encoded: Sendable {
        let data: [UInt8]
        /// Hash of `data`: the stored image's identity (MBTiles `tile_id`).
        let dataHash: ContentHash
    }

    private final class Entry {
        let pixels: [UInt8]
        var encoded: Encoded?
        var lastUse: Int
        init(pixels: [UInt8], lastUse: Int) {
            self.pixels = pixels
            self.lastUse = lastUse
        }
    }

    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private var entries: [ContentHash: Entry] = [:]
    private var storedBytes = 0
    private var clock = 0
    private(set) var encodings = 0
    private(set) var reuses = 0
    let capacityBytes: Int

    init(capacityBytes: Int = 8 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The encoding of `tile`: from the cache when the same pixels were seen recently,
    /// otherwise from `encode` (called without the lock held) and remembered.
    func encoding(of tile: Image, encode: (Image) throws -> [UInt8]) throws -> Encoded {
        let hash = tile.withUnsafeBytes { ContentHash(of: $0) }
        condition.lock()
        clock += 1
        while let entry = entries[hash] {
            // A hash collision: encode it apart.
            guard EncodingCache.samePixels(entry.pixels, tile.pixels) else { break }
            if let encoded = entry.encoded {
                entry.lastUse = clock
                reuses += 1
                condition.unlock()
                return encoded
            }
            condition.wait()  // another worker is encoding these pixels
        }
        // Claim the hash (unless a different image holds it) so other workers wait for us.
        let claimed = entries[hash] == nil
        var entry: Entry?
        if claimed, tile.pixels.count <= capacityBytes {
            entry = Entry(pixels: tile.pixels, lastUse: clock)
            entries[hash] = entry
            storedBytes += tile.pixels.count
        }
        condition.unlock()

        let result: Encoded
        do {
            let data = try encode(tile)
            result = Encoded(data: data, dataHash: ContentHash(of: data))
        } catch {
            condition.lock()
            if let entry, entries[hash] === entry {
                entries[hash] = nil
                storedBytes -= entry.pixels.count
            }
            condition.broadcast()
            condition.unlock()
            throw error
        }

        condition.lock()
        encodings += 1
        entry?.encoded = result
        evictIfNeeded()
        condition.broadcast()
        condition.unlock()
        return result
    }

    /// Byte equality through memcmp: Array's == compares element by element, and this runs
    /// under the lock for every repeated tile.
    private static func samePixels(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
    }

    /// Drops finished entries, least recently used first, until the pixels fit the budget.
    private func evictIfNeeded() {
        while storedBytes > capacityBytes {
            guard
                let victim = entries.filter({ $0.value.encoded != nil }).min(by: { $0.value.lastUse < $1.value.lastUse }
                )
            else { return }
            entries[victim.key] = nil
            storedBytes -= victim.value.pixels.count
        }
    }

    var counts: (encodings: Int, reuses: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (encodings, reuses)
    }
}
