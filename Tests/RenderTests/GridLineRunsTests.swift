import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// A region's runs skip the lines whose bounds it misses before looking at their chunks
/// (`GridLinePainter.Family.lineBounds`): the runs must be those found chunk by chunk.
@Suite struct GridLineRunsTests {
    /// Random polylines across a 2,048-pixel block, in chunks of a few vertices, some with a
    /// NaN vertex (whose chunk has no bounds), with and without a dash pattern.
    static func painter(seed: UInt64, dashed: Bool) -> GridLinePainter {
        var random = Xorshift(state: seed)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let lines = (0..<(1 + next(30))).map { index in
            var x = Double(next(2_048))
            var y = Double(next(2_048))
            let dx = Double(next(201) - 100) / 10
            let dy = Double(next(201) - 100) / 10
            let count = 2 + next(40)
            var vertices: [GridVertex] = []
            for k in 0..<count {
                let nan = k > 0 && next(60) == 0
                vertices.append(
                    GridVertex(
                        point: PlanePoint(x: nan ? .nan : x, y: y), position: GeoPosition(latitude: 0, longitude: 0)))
                x += dx * Double(1 + next(8))
                y += dy * Double(1 + next(8))
            }
            var starts = [0]
            while let last = starts.last, last + 2 < count - 1 { starts.append(last + 1 + next(5)) }
            starts = starts.filter { $0 < count - 1 }
            return GridLine(
                level: 1, axis: index % 2 == 0 ? .easting : .northing, zone: "18T", value: Double(index), label: nil,
                labelRank: GridLabelRank(level: 1, roundness: 0, order: 0, key: 0), vertices: vertices,
                chunkStarts: starts)
        }
        let symbol = LineSymbol(color: .black, width: 1 + Double(next(3)), dash: dashed ? [6, 3] : [])
        return GridLinePainter([(lines, symbol)], pixelsPerPoint: 1)
    }

    static func bits(_ runs: [[PlanePoint]]) -> [[UInt64]] {
        runs.map { run in run.flatMap { [$0.x.bitPattern, $0.y.bitPattern] } }
    }

    @Test func linesSkippedByTheirBoundsLeaveTheRunsAsTheyWere() {
        var skipped = 0
        var drawn = 0
        for seed in 1...200 {
            let painter = Self.painter(seed: UInt64(seed), dashed: seed % 3 == 0)
            guard var everyLine = painter.families.first else { continue }
            let family = everyLine
            // Bounds that every region meets: each line's chunks are looked at one by one.
            everyLine.lineBounds = everyLine.lineBounds.map { _ in
                Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
            }
            var random = Xorshift(state: UInt64(seed) * 31)
            for _ in 0..<20 {
                let near = Self.region(&random)
                let runs = GridLinePainter.runs(family, near: near)
                #expect(Self.bits(runs) == Self.bits(GridLinePainter.runs(everyLine, near: near)), "seed \(seed)")
                skipped += family.lineBounds.filter { !$0.intersects(near) }.count
                drawn += runs.count
            }
        }
        #expect(skipped > 1_000)  // lines were skipped
        #expect(drawn > 1_000)  // and others drawn
    }

    /// The paths a family's lines give a region as they were built before the runs were
    /// copied a stretch at a time: chunk by chunk, each reaching chunk appended to the path
    /// before it (its first vertex dropped), a chunk that misses ending the path.
    static func pathsChunkByChunk(_ family: GridLinePainter.Family, near: Rect) -> [GridLinePainter.Path] {
        var paths: [GridLinePainter.Path] = []
        for (index, line) in family.lines.enumerated() where family.lineBounds[index].intersects(near) {
            let bounds = family.chunkBounds[index]
            var current: GridLinePainter.Path?
            for c in 0..<bounds.count {
                guard bounds[c].intersects(near) else {
                    if let path = current { paths.append(path) }
                    current = nil
                    continue
                }
                let end = c + 1 < line.chunkStarts.count ? line.chunkStarts[c + 1] : line.vertices.count - 1
                let points = line.vertices[line.chunkStarts[c]...end].map(\.point)
                if var path = current {
                    path.chunkStarts.append(path.points.count - 1)
                    path.points += points.dropFirst()
                    current = path
                } else {
                    current = GridLinePainter.Path(points: points, chunkStarts: [0])
                }
            }
            if let path = current { paths.append(path) }
        }
        return paths
    }

    /// A random region a tile and a pixel of margin wide, over the lines' 2,048-pixel square.
    static func region(_ random: inout Xorshift) -> Rect {
        let x = Double(random.next() % 2_048)
        let y = Double(random.next() % 2_048)
        return Rect(minX: x, minY: y, maxX: x + 258, maxY: y + 258)
    }

    /// Runs made a stretch of chunks at a time are those made chunk by chunk, joined and
    /// dashed the same way.
    @Test func stretchesOfChunksGiveTheRunsOfChunkByChunk() {
        var compared = 0
        for seed in 1...200 {
            let painter = Self.painter(seed: UInt64(seed) &+ 1_000, dashed: seed % 3 == 0)
            guard let family = painter.families.first else { continue }
            var random = Xorshift(state: UInt64(seed) * 77)
            for _ in 0..<20 {
                let near = Self.region(&random)
                let joined = GridLineOutline.join(Self.pathsChunkByChunk(family, near: near))
                let expected =
                    family.dash.isEmpty
                    ? joined.map(\.points) : joined.flatMap { GridLineOutline.dashes($0, pattern: family.dash) }
                let runs = GridLinePainter.runs(family, near: near)
                #expect(Self.bits(runs) == Self.bits(expected), "seed \(seed)")
                compared += runs.count
            }
        }
        #expect(compared > 1_000)
    }
}
