import Testing

@testable import Tiles

@Suite struct MetatilePlanTests {
    /// Every tile of the pyramid, listed the slow obvious way.
    static func allTiles(_ pyramid: TilePyramid) -> Set<TileID> {
        var tiles = Set<TileID>()
        for r in pyramid.ranges {
            for x in r.minX...r.maxX { for y in r.minY...r.maxY { tiles.insert(TileID(z: r.z, x: x, y: y)) } }
        }
        return tiles
    }

    static let cases: [(zooms: ClosedRange<Int>, bbox: (Double, Double, Double, Double)?, size: Int)] = [
        (0...6, nil, 8),
        (0...5, nil, 3),
        (2...9, (-10.5, 35.2, 31.7, 61.9), 8),
        (7...7, (5.9, 45.8, 10.5, 47.8), 1),
        (3...11, (139.0, 35.0, 140.5, 36.3), 5),
    ]

    @Test(arguments: 0..<cases.count)
    func everyTileOnceInAlignedBlocks(index: Int) throws {
        let c = Self.cases[index]
        let bounds =
            try c.bbox.map { b throws(TilesError) in try GeoBounds(west: b.0, south: b.1, east: b.2, north: b.3) }
            ?? .world
        let pyramid = try TilePyramid(
            zooms: ZoomRange(min: c.zooms.lowerBound, max: c.zooms.upperBound), bounds: bounds)
        let plan = try MetatilePlan(pyramid: pyramid, size: c.size)
        var seen = Set<TileID>()
        var count = 0
        for metatile in plan {
            #expect(metatile.columns <= c.size && metatile.rows <= c.size)
            // A metatile never crosses the grid of size-aligned blocks.
            #expect(metatile.x / c.size == (metatile.x + metatile.columns - 1) / c.size)
            #expect(metatile.y / c.size == (metatile.y + metatile.rows - 1) / c.size)
            for tile in metatile.tiles {
                seen.insert(tile)
                count += 1
            }
        }
        #expect(count == pyramid.tileCount)
        #expect(seen == Self.allTiles(pyramid))
        #expect(plan.tileCount == pyramid.tileCount)
    }

    @Test(arguments: [(0, 1), (1, 2), (2, 3), (3, 4), (4, 7), (0, 13), (2, 64)])
    func shardsAreDisjointCompleteAndBalanced(caseIndex: Int, shards: Int) throws {
        let c = Self.cases[caseIndex]
        let bounds =
            try c.bbox.map { b throws(TilesError) in try GeoBounds(west: b.0, south: b.1, east: b.2, north: b.3) }
            ?? .world
        let pyramid = try TilePyramid(
            zooms: ZoomRange(min: c.zooms.lowerBound, max: c.zooms.upperBound), bounds: bounds)
        let whole = Array(try MetatilePlan(pyramid: pyramid, size: c.size))
        let work = { (m: Metatile) in m.tileCount + MetatilePlan.metatileOverhead }
        let total = whole.reduce(0) { $0 + work($1) }
        let heaviest = whole.map(work).max() ?? 0

        var union: [Metatile] = []
        for index in 0..<shards {
            let part = Array(
                try MetatilePlan(pyramid: pyramid, size: c.size, shard: Shard(index: index, count: shards)))
            union += part
            // Balanced: each part's work is within one metatile of an equal share.
            let partWork = part.reduce(0) { $0 + work($1) }
            #expect(
                abs(Double(partWork) - Double(total) / Double(shards)) <= Double(heaviest),
                "shard \(index)/\(shards): \(partWork) of \(total)")
        }
        // Disjoint and complete, and in the whole job's order (each shard is one run of it).
        #expect(union == whole)
    }
}
