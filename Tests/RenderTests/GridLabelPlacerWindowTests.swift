import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// `placeLocally` looks at the labels that can reach each one, not at all those left of it:
/// the same labels are kept as by looking at every other label.
@Suite struct GridLabelPlacerWindowTests {
    /// The rule itself: kept unless a label that outranks it overlaps it.
    static func keptByEveryPair(_ candidates: [GridLabelCandidate]) -> [GridLabelCandidate] {
        candidates.filter { c in !candidates.contains { $0.outranks(c) && $0.box.overlaps(c.box) } }
            .sorted { $0.outranks($1) }
    }

    @Test func theWindowKeepsWhatEveryPairKeeps() {
        var random = Xorshift(state: 0xC0FF_EE00_D15C_0123)
        let font = FontSpec(family: "DejaVu Sans", bold: false, italic: false, sizePixels: 10)
        var kept = 0
        var dropped = 0
        for round in 0..<300 {
            var candidates: [GridLabelCandidate] = []
            let span = Double(100 + random.below(3000))
            for i in 0..<(1 + random.below(120)) {
                // Mostly narrow boxes, now and then a wide one (the window must reach back to it).
                let width = random.below(10) == 0 ? Double(100 + random.below(400)) : Double(1 + random.below(60))
                let height = Double(1 + random.below(30))
                let x = Double(random.below(Int(span))) + Double(random.below(8)) / 8
                let y = Double(random.below(200 + round))
                let box = Rect(x: x, y: y, width: width, height: height)
                let anchor = PlanePoint(x: box.centerX, y: box.centerY)
                candidates.append(
                    GridLabelCandidate(
                        text: "\(i)", font: font, color: .black, halo: nil, corner: anchor, textBox: box, box: box,
                        rank: GridLabelRank(level: random.below(3), roundness: random.below(4), order: 0, key: 0),
                        anchor: anchor))
            }
            let expected = Self.keptByEveryPair(candidates).map(\.text)
            #expect(GridLabelPlacer.placeLocally(candidates).map(\.text) == expected, "round \(round)")
            kept += expected.count
            dropped += candidates.count - expected.count
        }
        #expect(kept > 1000 && dropped > 1000)  // both answers were given often
    }
}
