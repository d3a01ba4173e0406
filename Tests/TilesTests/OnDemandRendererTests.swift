import Dispatch
import Raster
import Synchronization
import Testing

@testable import Tiles

/// `meridian serve` renders each metatile once, however its requests interleave with the
/// renders of others.
@Suite struct OnDemandRendererTests {
    /// How many metatiles the renderers drew.
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    /// Counts the metatiles it draws.
    final class CountingRenderer: MetatileRendering {
        let drawn: Counter
        init(_ drawn: Counter) { self.drawn = drawn }
        func renderMetatile(_ metatile: Metatile) throws -> Image {
            drawn.value.withLock { $0 += 1 }
            return PatternRenderer.block(metatile, side: 16)
        }
    }

    static func renderer(counting drawn: Counter) throws -> OnDemandRenderer {
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 3))
        return try OnDemandRenderer(
            pyramid: pyramid, metatileSize: 4, workers: 2, encoder: CountingEncoder(), skipEmpty: false
        ) { CountingRenderer(drawn) }
    }

    /// What `serve`'s memory cache is to the renderer: where a render's tiles are kept.
    final class Store: Sendable {
        let bytes = Mutex<[TileID: [UInt8]]>([:])
        func keep(_ tiles: OnDemandRenderer.Tiles) {
            bytes.withLock { for case (let id, let encoded?) in tiles { $0[id] = encoded.data } }
        }
        func get(_ tile: TileID) -> [UInt8]? { bytes.withLock { $0[tile] } }
    }

    /// A request that missed the store just before another request's render put its tiles
    /// there, and asks after that render has left, gets the stored tiles: no second render.
    @Test func aRequestArrivingJustAfterARenderFindsItsTiles() throws {
        let drawn = Counter()
        let renderer = try Self.renderer(counting: drawn)
        defer { renderer.stop() }
        let store = Store()
        let tile = TileID(z: 3, x: 5, y: 2)
        let metatile = try #require(renderer.metatile(containing: tile))
        #expect(store.get(tile) == nil)  // the late request looks first, and misses
        let first = try renderer.tiles(of: metatile, stored: { store.get(tile) }, store: store.keep)
        guard case .rendered(let tiles) = first else {
            Issue.record("\(first)")
            return
        }
        #expect(tiles.count == 16)
        let late = try renderer.tiles(of: metatile, stored: { store.get(tile) })
        guard case .stored(let data) = late else {
            Issue.record("\(late)")
            return
        }
        #expect(data == tiles[tile]??.data)
        #expect(drawn.value.withLock { $0 } == 1)
    }

    /// Many requests for the tiles of one metatile at once, each looking in the store first
    /// as `serve` does: one render, every request gets its tile's bytes.
    @Test func concurrentRequestsRenderOnce() throws {
        let drawn = Counter()
        let renderer = try Self.renderer(counting: drawn)
        defer { renderer.stop() }
        let store = Store()
        let metatile = try #require(renderer.metatile(containing: TileID(z: 3, x: 4, y: 4)))
        let wanted = metatile.tiles
        let answers = Mutex<[TileID: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: wanted.count * 4) { index in
            let tile = wanted[index % wanted.count]
            let answer: [UInt8]?
            if let data = store.get(tile) {
                answer = data
            } else {
                let outcome = try? renderer.tiles(
                    of: metatile, stored: { store.get(tile) }, store: store.keep)
                switch outcome {
                case .stored(let data): answer = data
                case .rendered(let tiles), .waited(let tiles): answer = tiles[tile]??.data
                case nil: answer = nil
                }
            }
            answers.withLock { $0[tile] = answer }
        }
        #expect(drawn.value.withLock { $0 } == 1)
        let expected = store.bytes.withLock { $0 }
        #expect(expected.count == wanted.count)
        #expect(answers.withLock { $0 } == expected)
    }
}
