import Foundation
import Testing

@testable import Tiles

/// The job's parameters are checked by the types that hold them; their errors carry the
/// values and the limits (the command line's parsing of the option text is in CLITests).
@Suite struct ZoomRangeChecks {
    @Test func acceptsOneLevelAndRanges() throws {
        #expect(try ZoomRange(min: 5, max: 5).levels == 5...5)
        #expect(try ZoomRange(min: 0, max: 24).levels == 0...24)
        #expect(try ZoomRange(min: 3, max: 3).description == "3")
        #expect(try ZoomRange(min: 0, max: 6).description == "0-6")
    }

    @Test func rejectsNonsense() {
        #expect(throws: TilesError.zoomReversed(min: 6, max: 0)) { try ZoomRange(min: 6, max: 0) }
        #expect(throws: TilesError.zoomOutOfRange(min: 0, max: 30, deepest: 24)) { try ZoomRange(min: 0, max: 30) }
        #expect(throws: TilesError.zoomOutOfRange(min: -1, max: 2, deepest: 24)) { try ZoomRange(min: -1, max: 2) }
    }
}

@Suite struct BBoxChecks {
    @Test func clipsLatitudesToWebMercator() throws {
        let b = try GeoBounds(west: -180, south: -90, east: 180, north: 90)
        #expect(b == .world)
        #expect(abs(b.north - 85.0511287798) < 1e-9)
    }

    @Test(arguments: [
        ([10.0, 0, 5, 5], TilesError.BoundsProblem.empty),
        ([0, 5, 5, 5], .empty),
        ([-190, 0, 5, 5], .outsideWorld),
        ([0, 86, 5, 89], .beyondMercator(limit: GeoBounds.mercatorLimit)),
        ([.nan, 0, 1, 1], .notANumber),
    ])
    func rejectsNonsense(values: [Double], problem: TilesError.BoundsProblem) {
        let error = #expect(throws: TilesError.self) {
            try GeoBounds(west: values[0], south: values[1], east: values[2], north: values[3])
        }
        guard case .invalidBounds(_, _, _, _, let found) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(found == problem)
        #expect(error?.description.hasPrefix("the bounds ") == true)
    }

    /// The bounds of tile z/x/y from the inverse formulas (longitude linear in x; latitude
    /// from the Gudermannian of y), independent of the forward ones the code uses.
    static func bounds(z: Int, x: Int, y: Int) -> (w: Double, s: Double, e: Double, n: Double) {
        let n = pow(2, Double(z))
        func lat(_ row: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * row / n))) * 180 / Double.pi }
        return (Double(x) / n * 360 - 180, lat(Double(y + 1)), Double(x + 1) / n * 360 - 180, lat(Double(y)))
    }

    @Test func aTilesOwnBoundsGiveExactlyThatTile() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let z = Int.random(in: 1...18, using: &generator)
            let x = Int.random(in: 0..<(1 << z), using: &generator)
            let y = Int.random(in: 0..<(1 << z), using: &generator)
            let b = Self.bounds(z: z, x: x, y: y)
            guard b.n - b.s > 1e-9 else { continue }
            // Shrunk by a hair (the exact edges are shared with the neighbours, and
            // round-trips through the projection are not exact to the last bit).
            let dx = (b.e - b.w) * 1e-6
            let dy = (b.n - b.s) * 1e-6
            let range = try GeoBounds(west: b.w + dx, south: b.s + dy, east: b.e - dx, north: b.n - dy).tileRange(
                zoom: z)
            #expect(range == TileRange(z: z, minX: x, maxX: x, minY: y, maxY: y), "tile \(z)/\(x)/\(y)")
            // Grown a little: the eight neighbours (inside the world) join.
            let grown = try GeoBounds(
                west: max(-180, b.w - dx * 1e3), south: max(-89, b.s - dy * 1e3),
                east: min(180, b.e + dx * 1e3), north: min(89, b.n + dy * 1e3)
            ).tileRange(zoom: z)
            #expect(grown.minX == max(0, x - 1) && grown.maxX == min((1 << z) - 1, x + 1))
        }
    }

    @Test func worldAtEachZoomIsEveryTile() throws {
        for z in 0...12 {
            #expect(
                GeoBounds.world.tileRange(zoom: z)
                    == TileRange(z: z, minX: 0, maxX: (1 << z) - 1, minY: 0, maxY: (1 << z) - 1))
        }
    }
}

@Suite struct PyramidAndShardChecks {
    @Test func countsTilesWithoutListingThem() throws {
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 6))
        #expect(pyramid.tileCount == (0...6).reduce(0) { $0 + (1 << (2 * $1)) })  // 5461
        #expect(pyramid.tileCount == 5461)
        let deep = try TilePyramid(
            zooms: ZoomRange(min: 14, max: 14), bounds: GeoBounds(west: 13.0, south: 52.3, east: 13.8, north: 52.7))
        #expect(deep.tileCount == deep.ranges[0].columns * deep.ranges[0].rows)
    }

    @Test func refusesAbsurdTileCounts() {
        let zooms = try! ZoomRange(min: 0, max: 24)
        #expect(
            throws: TilesError.tooManyTiles(
                zooms: zooms, bounds: .world, zoom: 20, count: 1 << 40, limit: TilePyramid.maxTiles)
        ) { try TilePyramid(zooms: zooms) }
    }

    @Test func shardNumbersStartAtZero() throws {
        #expect(try Shard(index: 3, count: 4).description == "3/4")
        #expect(throws: TilesError.shardIndexOutOfRange(index: 4, count: 4)) { try Shard(index: 4, count: 4) }
        #expect(throws: TilesError.shardIndexOutOfRange(index: -1, count: 4)) { try Shard(index: -1, count: 4) }
        #expect(throws: TilesError.shardCountOutOfRange(index: 1, count: 0, max: Shard.maxCount)) {
            try Shard(index: 1, count: 0)
        }
    }

    @Test func tileFormatsAndMetatileSizes() throws {
        #expect(try TileFormat(tileSize: 512, pixelRatio: 2).pixels == 1024)
        #expect(throws: TilesError.unsupportedTileSize(300)) { try TileFormat(tileSize: 300) }
        #expect(throws: TilesError.unsupportedPixelRatio(3)) { try TileFormat(pixelRatio: 3) }
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 1))
        #expect(throws: TilesError.metatileSizeOutOfRange(0, max: 64)) { try MetatilePlan(pyramid: pyramid, size: 0) }
        #expect(throws: TilesError.metatileSizeOutOfRange(65, max: 64)) { try MetatilePlan(pyramid: pyramid, size: 65) }
        #expect(throws: TilesError.workersOutOfRange(0, max: 256)) {
            try TileJob(plan: MetatilePlan(pyramid: pyramid, size: 1), workers: 0)
        }
        #expect(throws: TilesError.bufferOutOfRange(1025, max: 1024)) { try MapTileRenderer.check(buffer: 1025) }
    }
}
