import Foundation
import Geodesy
import MapModel
import Synchronization
import TestSupport
import Testing

@testable import Render

/// The workers of one map share label placement at a resolution (`PlacementShare`): the
/// levels of a chunk are computed once and its candidates held once, whichever worker asks,
/// and every worker places what a worker alone places.
@Suite struct PlacementShareTests {
    /// The four metatiles of 8 x 8 tiles at zoom 4: each one's question reaches the whole world.
    static func views() throws -> [View] {
        try (0..<4).map {
            try View.tiles(z: 4, x: $0 % 2 * 8, y: $0 / 2 * 8, columns: 8, rows: 8, tileSize: 256, pixelRatio: 1)
        }
    }

    /// Two workers take the metatiles of zoom 4 in turn, at the same time, as a tile job's do.
    @Test(arguments: [400, 1600])
    func twoWorkersPlaceEachChunkOnce(count: Int) throws {
        let views = try Self.views()
        // The reference: one worker of a map of its own (the same places) places every view.
        let alone = try MapRenderer(map: try WaitingPlacementsTests.places(count))
        let expected = try views.map { try alone.placedLabels(view: $0).map.map(\.id) }
        let aloneEngine = alone.labelSpace(for: views[0]).engine
        #expect(aloneEngine.loadedCandidates == count)

        let map = try WaitingPlacementsTests.places(count)
        nonisolated(unsafe) let workers = try [MapRenderer(map: map), MapRenderer(map: map)]
        let placed = Mutex<[Int: [PlacementCandidate.ID]]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for (index, view) in views.enumerated() where index % 2 == worker {
                do {
                    let ids = try workers[worker].placedLabels(view: view).map.map(\.id)
                    placed.withLock { $0[index] = ids }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let got = placed.withLock { found in views.indices.map { found[$0] ?? [] } }
        #expect(got == expected)
        #expect(expected.allSatisfy { !$0.isEmpty })

        // One engine for both, which evaluated and holds what the lone worker's does (each
        // worker with an engine of its own: twice as much).
        var engines: [ObjectIdentifier: PlacementEngine] = [:]
        for worker in workers {
            let engine = worker.labelSpace(for: views[0]).engine
            engines[ObjectIdentifier(engine)] = engine
        }
        #expect(engines.count == 1)
        let evaluations = engines.values.reduce(0) { $0 + $1.evaluations }
        let held = engines.values.reduce(0) { $0 + $1.loadedCandidates }
        #expect(evaluations == aloneEngine.evaluations, "\(evaluations) evaluations, alone \(aloneEngine.evaluations)")
        #expect(held == count, "\(held) candidates fetched for \(count) places")
    }

    /// Two clients sweeping side by side, one two rows of views behind the other (a tile
    /// job's workers, one slowed by a heavy metatile), keep the sweep: a row goes once both
    /// are past it, and both get the answers of an engine that keeps everything. (A sweep
    /// for one client alone ends at the first question of the one behind.)
    @Test func clientsSweepSideBySide() throws {
        // The strip of `PlacementMemoryTests.rowsBehindASweepAreDropped`, asked in views of 1,024 px.
        let all = PlacementMemoryTests.sweptStrip()
        let source = BoxSource(all, reach: 64)
        let shared = PlacementEngine(source: source)
        let reference = PlacementEngine(source: source)
        _ = try reference.placed(touching: Rect(minX: 0, minY: 23 * 1024, maxX: 1024, maxY: 24 * 1024))
        let ahead = NSObject()
        let behind = NSObject()
        var most = 0
        for y in 0..<26 {
            // The one ahead asks about row y while the one behind asks about row y - 2.
            for (client, row) in [(ahead, y), (behind, max(0, y - 2))] where row < 24 {
                for x in 0..<2 {
                    let rect = Rect(
                        minX: Double(x) * 1024, minY: Double(row) * 1024, maxX: Double(x + 1) * 1024,
                        maxY: Double(row + 1) * 1024)
                    let got = try shared.placed(touching: rect, client: ObjectIdentifier(client)).map(\.id)
                    #expect(got == (try reference.placed(touching: rect).map(\.id)), "view \(x), \(row)")
                    most = max(most, shared.cachedCandidates)
                }
            }
        }
        #expect(shared.sweeping)
        #expect(shared.evaluations == reference.evaluations)
        // The rows of both clients' questions, 13 (`top`) on either side and a view's more:
        // some 47 of the 96 rows at once. Without the sweep, all of them.
        #expect(most <= all.count * 3 / 5, "\(most) of \(all.count) candidates kept at once")
    }
}
