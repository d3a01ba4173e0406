import Foundation
import Testing

@testable import Tiles

@Suite struct ZoomRangeParsing {
    @Test func acceptsOneLevelAndRanges() throws {
        #expect(try ZoomRange(parsing: "5").levels == 5...5)
        #expect(try ZoomRange(parsing: "0-6").levels == 0...6)
        #expect(try ZoomRange(parsing: "3-3").levels == 3...3)
        #expect(try ZoomRange(parsing: "0-24").levels == 0...24)
    }

    @Test(arguments: [
        ("6-0", "give the lower zoom first"),
        ("25", "out of range"),
        ("0-30", "out of range"),
        ("-1", "expects a zoom level"),
        ("a", "expects a zoom level"),
        ("1-2-3", "expects a zoom level"),
        ("", "expects a zoom level"),
        ("1.5", "expects a zoom level"),
    ])
    func rejectsNonsense(text: String, message: String) {
        #expect {
            try ZoomRange(parsing: text)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".hasPrefix("--zoom")
        }
    }
}

@Suite struct BBoxParsing {
    @Test func clipsLatitudesToWebMercator() throws {
        let b = try GeoBounds(parsing: "-180,-90,180,90")
        #expect(b == .world)
        #expect(abs(b.north - 85.0511287798) < 1e-9)
    }

    @Test(arguments: [
        ("10,0,5,5", "is empty"),
        ("0,5,5,5", "is empty"),
        ("-190,0,5,5", "outside -180,-90,180,90"),
        ("0,86,5,89", "beyond latitude"),
        ("1,2,3", "expects W,S,E,N"),
        ("a,b,c,d", "expects W,S,E,N"),
        ("nan,0,1,1", "not a number"),
    ])
    func rejectsNonsense(text: String, message: String) {
        #expect {
            try GeoBounds(parsing: text)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".hasPrefix("--bbox")
        }
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

@Suite struct PyramidAndShardParsing {
    @Test func countsTilesWithoutListingThem() throws {
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 6))
        #expect(pyramid.tileCount == (0...6).reduce(0) { $0 + (1 << (2 * $1)) })  // 5461
        #expect(pyramid.tileCount == 5461)
        let deep = try TilePyramid(
            zooms: ZoomRange(min: 14, max: 14), bounds: GeoBounds(west: 13.0, south: 52.3, east: 13.8, north: 52.7))
        #expect(deep.tileCount == deep.ranges[0].columns * deep.ranges[0].rows)
    }

    @Test func refusesAbsurdTileCounts() {
        #expect {
            try TilePyramid(zooms: ZoomRange(min: 0, max: 24))
        } throws: { "\($0)".contains("narrow the zoom range or the bbox") }
    }

    @Test func shardNumbersStartAtZero() throws {
        #expect(try Shard(parsing: "0/4") == Shard(index: 0, count: 4))
        #expect(try Shard(parsing: "3/4").index == 3)
        for bad in ["4/4", "-1/4", "1/0", "x/2", "1", "1/2/3"] {
            #expect(throws: TilesError.self) { try Shard(parsing: bad) }
        }
    }

    @Test func tileFormatsAndMetatileSizes() throws {
        #expect(try TileFormat(tileSize: 512, pixelRatio: 2).pixels == 1024)
        #expect(throws: TilesError.self) { try TileFormat(tileSize: 300) }
        #expect(throws: TilesError.self) { try TileFormat(pixelRatio: 3) }
        let pyramid = try TilePyramid(zooms: ZoomRange(min: 0, max: 1))
        #expect(throws: TilesError.self) { try MetatilePlan(pyramid: pyramid, size: 0) }
        #expect(throws: TilesError.self) { try MetatilePlan(pyramid: pyramid, size: 65) }
    }
}
