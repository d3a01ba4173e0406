import Geodesy
import Testing

@testable import Render

/// Grid line pieces that meet end to end are drawn as one polyline (`GridLineOutline.join`).
/// Small sets are joined by comparing points directly, large ones through hashed tables: both
/// must give the same polylines in the same order, since the order fixes which pieces join.
@Suite struct GridLineJoinTests {
    /// Random pieces whose ends are drawn from a few points, so that chains, branches (two
    /// pieces starting at one point), closed loops and a piece ending at its own start occur;
    /// -0.0 and 0.0 are different points, as their bits differ.
    static func pieces(_ count: Int, seed: UInt64) -> [GridLinePainter.Path] {
        var state = seed | 1
        func next(_ n: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(n))
        }
        let points =
            [PlanePoint(x: 0, y: 0), PlanePoint(x: -0.0, y: 0)]
            + (0..<(count / 2 + 2)).map {
                PlanePoint(x: Double($0) * 1.5, y: Double($0 % 3))
            }
        return (0..<count).map { _ in
            let middle = (0..<next(3)).map { _ in PlanePoint(x: Double(next(100)), y: 0.25) }
            let line = [points[next(points.count)]] + middle + [points[next(points.count)]]
            return GridLinePainter.Path(points: line, chunkStarts: [0] + (next(2) == 0 ? [] : [1]))
        }
    }

    static func same(_ a: [GridLinePainter.Path], _ b: [GridLinePainter.Path]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { p, q in
                p.chunkStarts == q.chunkStarts
                    && p.points.map { [$0.x.bitPattern, $0.y.bitPattern] }
                        == q.points.map {
                            [$0.x.bitPattern, $0.y.bitPattern]
                        }
            }
    }

    @Test(arguments: [2, 3, 5, 8, 20, 64])
    func scanningJoinsAsHashingDoes(count: Int) {
        var joinedSome = false
        for seed in 1...200 {
            let pieces = Self.pieces(count, seed: UInt64(seed * 7919 + count))
            let scanned = GridLineOutline.joinByScanning(pieces)
            #expect(Self.same(scanned, GridLineOutline.joinByHashing(pieces)), "\(count) pieces, seed \(seed)")
            #expect(Self.same(GridLineOutline.join(pieces), scanned))
            if scanned.count < pieces.count { joinedSome = true }
        }
        #expect(joinedSome)  // the pieces did meet
    }
}
