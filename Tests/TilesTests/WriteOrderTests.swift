import Foundation
import Raster
import Synchronization
import TestSupport
import Testing

@testable import Tiles

/// Batches written in the plan's order: the queue itself, and an MBTiles file of the same bytes
/// whatever the workers, when workers finish their metatiles out of order, and whatever the
/// metatile size (the finished file is a copy in key order, `MBTilesSortedCopy`).
@Suite struct WriteOrderTests {
    @Test func itemsComeOutInTheOrderTheyWereHandedOut() {
        let order = WriteOrder<String>()
        #expect(order.deliver(2, "c", bytes: 1).isEmpty)
        #expect(order.deliver(1, "b", bytes: 1).isEmpty)
        #expect(order.deliver(0, "a", bytes: 1) == ["a", "b", "c"])
        #expect(order.deliver(4, "e", bytes: 1).isEmpty)
        #expect(order.deliver(6, "g", bytes: 1).isEmpty)
        // A stopped job: 3 and 5 never came; what waits is written in order.
        #expect(order.drain() == ["e", "g"])
    }

    @Test func theFeederWaitsWhileTooManyWait() throws {
        let order = WriteOrder<Int>(maxAhead: 2, maxBytes: 100)
        #expect(order.admit(0) && order.admit(1))
        // Item 2 must wait for item 0 to be written.
        let admitted = Mutex(false)
        let done = DispatchSemaphore(value: 0)
        Thread {
            admitted.withLock { $0 = order.admit(2) }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(order.deliver(1, 1, bytes: 10).isEmpty)
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(order.deliver(0, 0, bytes: 10) == [0, 1])
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(admitted.withLock { $0 })
        // Too many bytes waiting holds it back too, until cancelled.
        #expect(order.deliver(3, 3, bytes: 101).isEmpty)
        let refused = DispatchSemaphore(value: 0)
        Thread {
            if !order.admit(3) { refused.signal() }
        }.start()
        #expect(refused.wait(timeout: .now() + 0.3) == .timedOut)
        order.cancel()
        #expect(refused.wait(timeout: .now() + 10) == .success)
    }

    /// The first metatiles of each zoom take longer, so with several workers the later ones
    /// finish first: the file must still have the bytes of the one-worker job.
    @Test func sameMBTilesFileWhateverWorkers() throws {
        let files = try [1, 2, 4, 4].map { try Self.mbtilesFile(size: 2, workers: $0) { SlowFirstColumnRenderer() } }
        Self.expectSame(files)
    }

    /// Another metatile size hands the tiles to the file in another order; the finished file
    /// must have the same bytes all the same.
    @Test func sameMBTilesFileWhateverMetatile() throws {
        let files = try [1, 2, 3, 8].map { try Self.mbtilesFile(size: $0, workers: 2) { PatternRenderer() } }
        Self.expectSame(files)
    }

    /// The bytes of the MBTiles file of zoom 0-5 rendered by `renderer`; nothing else is left
    /// beside it.
    static func mbtilesFile(
        size: Int, workers: Int, renderer: @escaping @Sendable () -> any MetatileRendering
    ) throws -> [UInt8] {
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 5))
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        let path = folder + "/t.mbtiles"
        let plan = try MetatilePlan(pyramid: pyramid, size: size)
        let sink = try MBTilesSink(path: path, metadata: TileJobTests.metadata, resume: false)
        let summary = try TileJob(plan: plan, workers: workers).run(
            sink: sink, encoder: CountingEncoder(), makeRenderer: renderer)
        #expect(summary.tiles == pyramid.tileCount)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["t.mbtiles"])
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Compared as a whole: a failure prints which run differed, not megabytes of file.
    static func expectSame(_ files: [[UInt8]]) {
        #expect(files[0].count > 0)
        for (run, file) in files.enumerated().dropFirst() {
            let same = file == files[0]
            #expect(same, "run \(run) wrote a file of \(file.count) bytes that differs from the first")
        }
    }
}

/// `PatternRenderer`, slower on the metatiles of a zoom's first column.
private final class SlowFirstColumnRenderer: MetatileRendering {
    func renderMetatile(_ metatile: Metatile) throws -> Image {
        if metatile.x == 0 && metatile.z >= 3 { usleep(20_000) }
        return PatternRenderer.block(metatile, side: 16)
    }
}
