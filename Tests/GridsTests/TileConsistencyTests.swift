import Foundation
import Geodesy
import Testing

@testable import Grids

/// Tiles must agree whatever metatile they are cut from: a grid generated for one tile has
/// exactly the vertices (bit for bit), chunk starts and fixed label anchors that the grid of
/// a 4x4 block around it has there.
@Suite struct TileConsistencyTests {
    struct Place: CustomStringConvertible {
        let z: Int, x: Int, y: Int
        var description: String { "\(z)/\(x)/\(y)" }
    }

    /// Blocks at world, regional and street zooms, one on a zone edge, one at the equator,
    /// one by the north cap.
    static let blocks = [
        Place(z: 3, x: 2, y: 1), Place(z: 7, x: 36, y: 46), Place(z: 11, x: 584, y: 780),
        Place(z: 14, x: 8528, y: 6208), Place(z: 9, x: 268, y: 254), Place(z: 8, x: 134, y: 0),
        Place(z: 16, x: 19294, y: 24642),
    ]

    static func area(_ projection: WebMercatorGridProjection, x: Int, y: Int, columns: Int) -> Rect {
        Rect(
            minX: Double(x * 256), minY: Double(y * 256), maxX: Double((x + columns) * 256),
            maxY: Double((y + columns) * 256))
    }

    static func generate(
        _ type: GridType, _ projection: WebMercatorGridProjection, _ area: Rect,
        cache: GridCache? = nil, lines: Bool = true, labels: Bool = true
    ) throws -> GridGeometry {
        var request = GridRequest(type: type)
        request.minSpacing = TestView.minSpacing
        request.margin = 40
        request.labelMargin = 120
        request.cellAnchor = .fixed
        request.lines = lines
        request.labels = labels
        return try Grid.generate(request, projection: projection, area: area, cache: cache)
    }

    struct LineKey: Hashable {
        let level: Int, axis: GridAxis, zone: String?, value: Double
        init(_ line: GridLine) {
            level = line.level
            axis = line.axis
            zone = line.zone
            value = line.value
        }
    }

    @Test(arguments: GridType.allCases, blocks)
    func tilesMatchTheirBlock(_ type: GridType, _ block: Place) throws {
        let projection = WebMercatorGridProjection(resolution: 2 * WebMercator.halfWorld / (256 * Double(1 << block.z)))
        let big = try Self.generate(type, projection, Self.area(projection, x: block.x, y: block.y, columns: 4))
        var byKey: [LineKey: [GridLine]] = [:]
        for line in big.lines { byKey[LineKey(line), default: []].append(line) }
        var compared = 0
        for dx in 0..<4 {
            for dy in 0..<4 {
                let tileArea = Self.area(projection, x: block.x + dx, y: block.y + dy, columns: 1)
                let tile = try Self.generate(type, projection, tileArea)
                for line in tile.lines {
                    let points = line.vertices.map(\.point)
                    let starts = Set(line.chunkStarts.map { line.vertices[$0].point })
                    // The block holds a piece of the same line with these vertices in a row.
                    let found = (byKey[LineKey(line)] ?? []).contains { candidate in
                        let all = candidate.vertices.map(\.point)
                        guard let first = all.firstIndex(of: points[0]), first + points.count <= all.count,
                            Array(all[first..<(first + points.count)]) == points
                        else { return false }
                        let bigStarts = Set(candidate.chunkStarts.map { candidate.vertices[$0].point })
                        return starts.isSubset(of: bigStarts.union([points[0]]))
                    }
                    #expect(
                        found,
                        "\(type) \(block) tile +\(dx)+\(dy): \(line.axis) \(line.value) \(line.zone ?? "") differs from the block's"
                    )
                    compared += 1
                }
                // Labels anchored in the tile are the block's labels, at the same points.
                for label in tile.labels where tileArea.contains(label.anchor) {
                    #expect(
                        big.labels.contains {
                            $0.text == label.text && $0.anchor == label.anchor && $0.rank == label.rank
                        },
                        "\(type) \(block) tile +\(dx)+\(dy): label \(label.text) at \(label.anchor) is not the block's")
                }
            }
        }
        #expect(compared > 0, "\(type) \(block): no lines")
    }

    /// A cache kept from view to view (as a tile worker keeps one) changes nothing: every
    /// block of a 3x3 patch, generated after its neighbours with one cache, has the lines,
    /// vertices and labels it has when generated alone.
    @Test(arguments: GridType.allCases, [blocks[1], blocks[2], blocks[3], blocks[6]])
    func aCacheChangesNothing(_ type: GridType, _ block: Place) throws {
        let projection = WebMercatorGridProjection(resolution: 2 * WebMercator.halfWorld / (256 * Double(1 << block.z)))
        let cache = GridCache()
        for dy in 0..<3 {
            for dx in 0..<3 {
                let area = Self.area(projection, x: block.x + 4 * dx, y: block.y + 4 * dy, columns: 4)
                let cached = try Self.generate(type, projection, area, cache: cache)
                let fresh = try Self.generate(type, projection, area)
                #expect(cached.lines.count == fresh.lines.count, "\(type) \(block) +\(dx)+\(dy): lines")
                for (a, b) in zip(cached.lines, fresh.lines) {
                    #expect(
                        a.zone == b.zone && a.value == b.value && a.vertices == b.vertices
                            && a.chunkStarts == b.chunkStarts,
                        "\(type) \(block) +\(dx)+\(dy): \(a.axis) \(a.value) differs with the cache")
                }
                #expect(
                    cached.labels.map(\.text) == fresh.labels.map(\.text)
                        && cached.labels.map(\.anchor) == fresh.labels.map(\.anchor),
                    "\(type) \(block) +\(dx)+\(dy): labels")
            }
        }
    }

    /// Tiles' label regions ask for labels without lines: the same labels, with their text,
    /// anchor, rank and line value, and no line made, with a cache shared with full
    /// generations (as a worker's is) and without one.
    @Test(arguments: GridType.allCases, [blocks[1], blocks[2], blocks[3], blocks[6]])
    func labelsWithoutLinesAreTheSame(_ type: GridType, _ block: Place) throws {
        let projection = WebMercatorGridProjection(resolution: 2 * WebMercator.halfWorld / (256 * Double(1 << block.z)))
        let cache = GridCache()
        var compared = 0
        for dx in 0..<2 {
            let area = Self.area(projection, x: block.x + 4 * dx, y: block.y, columns: 4)
            let full = try Self.generate(type, projection, area, cache: cache)
            compared += full.labels.count
            for bare in [
                try Self.generate(type, projection, area, cache: cache, lines: false),
                try Self.generate(type, projection, area, lines: false),
            ] {
                #expect(bare.lines.isEmpty, "\(type) \(block) +\(dx): lines made")
                #expect(
                    bare.labels.map(\.text) == full.labels.map(\.text)
                        && bare.labels.map(\.anchor) == full.labels.map(\.anchor)
                        && bare.labels.map(\.rank) == full.labels.map(\.rank)
                        && bare.labels.map(\.lineValue) == full.labels.map(\.lineValue),
                    "\(type) \(block) +\(dx): labels differ without lines")
            }
        }
        #expect(compared > 0, "\(type) \(block): no labels")
    }

    /// A worker's cache keeps the label stops of UTM lines: a label region generated again
    /// (or the overlap of its neighbour) finds its stops there, and a metatile's lines, made
    /// without labels, work none out. Counted, not timed.
    @Test(arguments: [GridType.utm, .mgrs], [blocks[2], blocks[3]])
    func labelStopsAreMadeOnce(_ type: GridType, _ block: Place) throws {
        let projection = WebMercatorGridProjection(resolution: 2 * WebMercator.halfWorld / (256 * Double(1 << block.z)))
        let cache = GridCache()
        let area = Self.area(projection, x: block.x, y: block.y, columns: 4)
        let lines = try Self.generate(type, projection, area, cache: cache, labels: false)
        #expect(!lines.lines.isEmpty && lines.labels.isEmpty)
        #expect(cache.stopsMade == 0, "\(type) \(block): lines without labels made label stops")

        let first = try Self.generate(type, projection, area, cache: cache, lines: false)
        let lineLabels = first.labels.filter { $0.kind == .line }.count
        #expect(lineLabels > 0 && cache.stopsMade >= lineLabels, "\(type) \(block): \(lineLabels) line labels")
        let made = cache.stopsMade
        let again = try Self.generate(type, projection, area, cache: cache, lines: false)
        #expect(cache.stopsMade == made, "\(type) \(block): the same region worked its stops out again")
        #expect(again.labels.map(\.anchor) == first.labels.map(\.anchor))

        // A neighbour overlapping half of it: only the stops of its other half are new.
        let next = Self.area(projection, x: block.x + 2, y: block.y, columns: 4)
        let fresh = try Self.generate(type, projection, next)
        let neighbour = try Self.generate(type, projection, next, cache: cache, lines: false)
        #expect(neighbour.labels.map(\.anchor) == fresh.labels.map(\.anchor))
        #expect(cache.stopsMade - made < made, "\(type) \(block): the overlap's stops were made again")
    }
}
