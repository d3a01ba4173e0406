import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// A solid family's outlines made straight from its lines' stretches
/// (`GridLinePainter.outlines`) are those of the runs `runs` gives, outlined one by one, in
/// the same order and to the bit.
@Suite struct GridLineStretchOutlinesTests {
    typealias Outline = (points: [UInt64], ends: [Int])

    static func bits(_ scratch: GridLineOutline.Scratch) -> Outline {
        (scratch.outline.flatMap { [$0.x.bitPattern, $0.y.bitPattern] }, scratch.ends)
    }

    static func byRuns(_ family: GridLinePainter.Family, near: Rect) -> [Outline] {
        var scratch = GridLineOutline.Scratch()
        return GridLinePainter.runs(family, near: near).map { run in
            GridLineOutline.outline(run, halfWidth: family.width / 2, cap: family.cap, into: &scratch)
            return bits(scratch)
        }
    }

    static func byStretches(_ family: GridLinePainter.Family, near: Rect) -> [Outline] {
        var stretches: [GridLinePainter.Stretch] = []
        var used: [Bool] = []
        var scratch = GridLineOutline.Scratch()
        var outlines: [Outline] = []
        GridLinePainter.stretches(family, near: near, into: &stretches)
        GridLinePainter.outlines(family, stretches, used: &used, scratch: &scratch) { outlines.append(bits($0)) }
        return outlines
    }

    static func same(_ a: [Outline], _ b: [Outline]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.points == $1.points && $0.ends == $1.ends }
    }

    /// Random lines (some with NaN vertices), regions across them.
    @Test func randomLinesGiveTheOutlinesOfTheirRuns() {
        var compared = 0
        for seed in 1...300 {
            let painter = GridLineRunsTests.painter(seed: UInt64(seed) &+ 5_000, dashed: false)
            guard let family = painter.families.first else { continue }
            var random = Xorshift(state: UInt64(seed) * 13)
            for _ in 0..<20 {
                let near = GridLineRunsTests.region(&random)
                let expected = Self.byRuns(family, near: near)
                #expect(Self.same(Self.byStretches(family, near: near), expected), "seed \(seed)")
                compared += expected.count
            }
        }
        #expect(compared > 1_000)
    }

    /// Lines cut into pieces that meet end to end, in shuffled order, some closed into loops,
    /// with repeated points where pieces meet: the joins, the loops and the repeats dropped.
    @Test func piecesMeetingEndToEndAreJoinedAsRunsJoinThem() {
        var joins = 0
        for seed in 1...200 {
            var random = Xorshift(state: UInt64(seed) &* 7_919)
            func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
            var lines: [GridLine] = []
            for chain in 0..<(1 + next(6)) {
                var x = Double(next(200))
                var y = Double(next(200))
                let first = PlanePoint(x: x, y: y)
                let pieces = 1 + next(5)
                let closed = next(4) == 0
                for piece in 0..<pieces {
                    var points = [PlanePoint(x: x, y: y)]
                    for _ in 0..<(1 + next(4)) {
                        if next(5) == 0 { points.append(points[points.count - 1]) }  // a repeat
                        x += Double(next(21) - 10)
                        y += Double(next(21) - 10)
                        points.append(PlanePoint(x: x, y: y))
                    }
                    if closed, piece == pieces - 1 { points.append(first) }
                    let vertices = points.map {
                        GridVertex(point: $0, position: GeoPosition(latitude: 0, longitude: 0))
                    }
                    lines.append(
                        GridLine(
                            level: 1, axis: .easting, zone: "18T", value: Double(chain), label: nil,
                            labelRank: GridLabelRank(level: 1, roundness: 0, order: 0, key: 0), vertices: vertices,
                            chunkStarts: [0]))
                }
            }
            for i in stride(from: lines.count - 1, to: 0, by: -1) { lines.swapAt(i, next(i + 1)) }
            let caps: [LineCap] = [.butt, .round, .square]
            let symbol = LineSymbol(color: .black, width: 1 + Double(next(3)), dash: [], cap: caps[next(3)])
            let painter = GridLinePainter([(lines, symbol)], pixelsPerPoint: 1)
            guard let family = painter.families.first else { continue }
            let near = Rect(minX: -1_000, minY: -1_000, maxX: 1_000, maxY: 1_000)
            let expected = Self.byRuns(family, near: near)
            #expect(Self.same(Self.byStretches(family, near: near), expected), "seed \(seed)")
            joins += family.lines.count - expected.count
        }
        #expect(joins > 100)
    }
}
