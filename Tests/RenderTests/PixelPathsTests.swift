import Geodesy
import Testing

@testable import Render

/// The pixel parts of a block's features (`PixelPaths`): made once per geometry of a feature
/// that several tiles draw, made each time for the others, and whether a feature is such a
/// one asked once per feature however many tiles ask for its parts.
@Suite struct PixelPathsTests {
    final class Counter {
        var count = 0
    }

    @Test(arguments: [30, 300])
    func keptPartsAreMadeOnceAndEachSlotIsJudgedOnce(features: Int) {
        let judged = Counter()
        let made = Counter()
        let paths = PixelPaths { slot in
            judged.count += 1
            return slot.isMultiple(of: 3) ? Int.max : nil
        }
        let tiles = 4
        let geometries = 2
        for _ in 0..<tiles {
            // Slots are asked for out of order (a tile draws only some of a block's features).
            for slot in (0..<features).reversed() {
                for g in (0..<geometries).reversed() {
                    let parts = paths.parts(PixelPaths.Key(feature: slot, geometry: g)) {
                        made.count += 1
                        return [[PlanePoint(x: Double(slot), y: Double(g))]]
                    }
                    #expect(parts == [[PlanePoint(x: Double(slot), y: Double(g))]])
                }
            }
        }
        let kept = (features + 2) / 3
        #expect(judged.count == features)
        #expect(paths.count == kept * geometries)
        #expect(made.count == kept * geometries + (features - kept) * geometries * tiles)
    }
}
