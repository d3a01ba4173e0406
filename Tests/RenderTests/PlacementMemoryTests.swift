import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// Label placement's memory follows a budget, not the data or the zoom (issue 18: a world
/// pyramid's peak RSS grew from 186 MB at zoom 0-4 to 755 MB at zoom 0-8).
@Suite struct PlacementMemoryTests {
    /// A chunk of a deep zoom with one label in it once bucketed a 2,000 px area into 12 px
    /// cells, for every level: 110 KB a level for one box. The cells now follow the items.
    @Test func sparseBucketsStaySmall() {
        let box = Rect(minX: 500, minY: 500, maxX: 560, maxY: 512)
        let one = BoxBuckets(
            area: Rect(minX: 0, minY: 0, maxX: 2000, maxY: 2000), cellSize: 12, items: [0], boxes: { _ in [box] })
        #expect(one.estimatedBytes < 1024, "\(one.estimatedBytes) bytes for one box")
        #expect(one.forEach(touching: box) { _ in false } == false)  // still found
        // A dense set keeps cells about its boxes' size.
        var boxes: [Rect] = []
        for i in 0..<4000 {
            let x = Double(i % 64) * 31
            let y = Double(i / 64) * 31
            boxes.append(Rect(minX: x, minY: y, maxX: x + 24, maxY: y + 12))
        }
        let dense = BoxBuckets(
            area: Rect(minX: 0, minY: 0, maxX: 2000, maxY: 2000), cellSize: 12, items: Array(boxes.indices),
            boxes: { [boxes[$0]] })
        #expect(dense.cellSize <= 16)
    }

    /// A question about one region of a wide, nearly empty resolution loads the chunks around
    /// it, not every chunk within `top` chunks of it (empty chunks need no neighbours).
    @Test func emptyChunksDoNotSpread() throws {
        // A few labels far from the region asked for, over a zoom-8-wide square.
        let source = BoxSource.labels(count: 40, side: 65536, seed: 5)
        let engine = PlacementEngine(source: source)
        let region = Rect(minX: 30000, minY: 30000, maxX: 32048, maxY: 32048)
        let near = source.all.filter {
            $0.anchor.x > 29000 && $0.anchor.x < 33000 && $0.anchor.y > 29000 && $0.anchor.y < 33000
        }
        #expect(near.isEmpty)
        _ = try engine.placed(touching: region)
        let side = Int(((region.width + 2 * engine.reach) / engine.chunkSize).rounded(.up)) + 1
        #expect(engine.cachedChunks <= side * side, "\(engine.cachedChunks) chunks for a \(side) x \(side) question")
    }

    /// A pyramid's walk over growing zooms of the world map keeps the renderer's label caches
    /// under its budget after every metatile, and places exactly what an unbounded renderer
    /// places: what is dropped is computed again with the same answer.
    @Test func pyramidStaysWithinTheBudgetWithTheSameLabels() throws {
        let map = try LoadedMap(document: try MapDocument.load(path: Repository.fixture("maps/world-mapnik.json")))
        let bounded = try MapRenderer(map: map)
        bounded.labelPlacementBudget = 256 << 10
        let free = try MapRenderer(map: map)
        free.labelPlacementBudget = Int.max
        var largest = 0
        var trimmed = false
        for z in 0...5 {
            let blocks = max(1, (1 << z) / 4)
            let side = min(1 << z, 4)
            // Every metatile of the zoom, in the order a pyramid takes them.
            for y in 0..<blocks {
                for x in 0..<blocks {
                    let view = try View.tiles(
                        z: z, x: x * side, y: y * side, columns: side, rows: side, tileSize: 256, pixelRatio: 1)
                    let got = try bounded.placedLabels(view: view).map.map(\.id)
                    let expected = try free.placedLabels(view: view).map.map(\.id)
                    #expect(got == expected, "zoom \(z) block \(x), \(y)")
                    #expect(bounded.labelCacheBytes <= bounded.labelPlacementBudget)
                    largest = max(largest, free.labelCacheBytes)
                    trimmed = trimmed || free.labelCacheBytes > bounded.labelPlacementBudget
                }
            }
        }
        // The budget was below what the walk would keep unbounded: the bound did something.
        #expect(trimmed, "the unbounded walk kept only \(largest) bytes")
    }

    /// A tile job asks row after row from the north: the chunk rows no later question can
    /// touch are dropped as it goes, with the same answers as an engine that keeps every
    /// chunk. Before, a deep zoom kept every row it went through until the budget was full
    /// (the last rise of a zoom 0-8 pyramid's memory, in the whole map and its sample alike).
    /// 4,000 labels in a strip 2,048 px wide and 96 chunks (24,576 px) tall, to be asked in
    /// views of 1,024 px.
    static func sweptStrip() -> [PlacementCandidate] {
        var random = BoxSource.Random(state: 11)
        var all: [PlacementCandidate] = []
        for i in 0..<4000 {
            let x = random.unit() * 2048
            let y = random.unit() * 24576
            let width = 24 + 96 * random.unit()
            all.append(
                BoxSource.label(
                    i, priority: Double(random.next() % 4), anchor: PlanePoint(x: x, y: y),
                    boxes: [Rect(minX: x - width / 2, minY: y - 6, maxX: x + width / 2, maxY: y + 6)]))
        }
        return all
    }

    @Test func rowsBehindASweepAreDropped() throws {
        let all = Self.sweptStrip()
        let source = BoxSource(all, reach: 64)
        let sweep = PlacementEngine(source: source)
        let reference = PlacementEngine(source: source)
        func view(_ x: Int, _ y: Int) -> Rect {
            Rect(minX: Double(x) * 1024, minY: Double(y) * 1024, maxX: Double(x + 1) * 1024, maxY: Double(y + 1) * 1024)
        }
        // Asked first about the last row, then from the north: it keeps everything it computes.
        _ = try reference.placed(touching: view(0, 23))
        var most = 0
        for y in 0..<24 {
            for x in 0..<2 {
                let got = try sweep.placed(touching: view(x, y)).map(\.id)
                #expect(got == (try reference.placed(touching: view(x, y)).map(\.id)), "view \(x), \(y)")
                most = max(most, sweep.cachedCandidates)
            }
        }
        #expect(sweep.sweeping)
        #expect(!reference.sweeping)
        // Nothing a later question needed was dropped: no level of a chunk computed twice.
        #expect(sweep.evaluations == reference.evaluations)
        #expect(reference.loadedCandidates == all.count)
        // A question's levels reach 13 chunk rows (`top`) south of its own, and it keeps one
        // row north of them and a question's height for a worker behind: some 25 of the 96
        // rows at once (when it kept 13 rows north as well, some 37: 1,453 candidates).
        #expect(most <= all.count * 3 / 10, "\(most) of \(all.count) candidates kept at once")
        // Asked again about the north, it computes what it dropped, the same, and stops dropping.
        #expect(
            try sweep.placed(touching: view(1, 2)).map(\.id) == (try reference.placed(touching: view(1, 2)).map(\.id)))
        #expect(!sweep.sweeping)
    }
}

/// The engine sorts a chunk's candidates through their positions (a merge sort of the
/// candidates themselves takes a buffer of half of them).
@Suite struct PlacementOrderTests {
    /// The same order as a stable sort by rank, ties (a source repeating a feature) kept in
    /// the order given, for sets with and without ties and already sorted ones.
    @Test(arguments: [0, 1, 2, 7, 1000, 5000])
    func sortsAsAStableSortDoes(count: Int) {
        var random = BoxSource.Random(state: UInt64(count) + 11)
        var list: [PlacementCandidate] = []
        for i in 0..<count {
            // Few features and priorities, so that many candidates tie; the anchor tells them apart.
            let feature = Int(random.next() % UInt64(max(count / 4, 1)))
            let x = Double(i)
            list.append(
                BoxSource.label(
                    feature, priority: Double(random.next() % 3), position: Int(random.next() % 2),
                    anchor: PlanePoint(x: x, y: 0), boxes: [Rect(minX: x, minY: 0, maxX: x + 10, maxY: 10)]))
        }
        let expected = list.enumerated().sorted { a, b in
            a.element.outranks(b.element) || (!b.element.outranks(a.element) && a.offset < b.offset)
        }.map(\.element.anchor.x)
        var sorted = list
        PlacementEngine.sortInPlacementOrder(&sorted)
        #expect(sorted.map(\.anchor.x) == expected)
        var again = sorted
        PlacementEngine.sortInPlacementOrder(&again)
        #expect(again.map(\.anchor.x) == expected)
    }
}
