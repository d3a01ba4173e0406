import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// Placements wait for the placement engine only until it takes them: what a label space
/// keeps besides the engine's chunks does not grow with the places (issue 13: a whole-world
/// view once held every place's placements twice).
@Suite struct WaitingPlacementsTests {
    /// Features of a 4,096-pixel square as the anchors of their placements: points, and long
    /// lines with a label every 300 pixels, anchored in several blocks.
    final class Layer {
        var features: [[PlanePoint]] = []
        /// How many times each feature's placements were made.
        var made: [Int] = []

        init(points: Int, lines: Int) {
            var random = BoxSource.Random(state: 13)
            for _ in 0..<points {
                features.append([PlanePoint(x: random.unit() * 4096, y: random.unit() * 4096)])
            }
            for _ in 0..<lines {
                let y = random.unit() * 4096
                let start = random.unit() * 1000
                features.append(stride(from: start, to: 4096, by: 300).map { PlanePoint(x: $0, y: y) })
            }
            made = Array(repeating: 0, count: features.count)
        }

        func placements(_ feature: Int) -> [PlacementCandidate] {
            made[feature] += 1
            return features[feature].enumerated().map { instance, p in
                PlacementCandidate(
                    owner: .init(kind: .mapLabel, layer: 0, rule: 0, feature: feature, instance: instance),
                    priority: 0, position: 0, anchor: p,
                    boxes: [Rect(minX: p.x - 20, minY: p.y - 5, maxX: p.x + 20, maxY: p.y + 5)],
                    allowOverlap: false, ignorePlacement: false)
            }
        }

        /// Placements waiting in blocks of 1,024 pixels and chunks of 256, read as a source
        /// with a spatial index finds them: by the bounds of their anchors.
        func waiting(budget: Int) -> WaitingPlacements {
            WaitingPlacements(
                blockSide: 1024, chunkSide: 256, budget: budget, mercator: { $0 },
                read: { _, area, found in
                    for (i, anchors) in self.features.enumerated() {
                        let bounds = anchors.reduce(Rect.empty) {
                            $0.union(Rect(minX: $1.x, minY: $1.y, maxX: $1.x, maxY: $1.y))
                        }
                        if bounds.intersects(area) { found(i, bounds) { self.placements(i) } }
                    }
                })
        }

        var count: Int { features.reduce(0) { $0 + $1.count } }
    }

    /// Every chunk of the square, in a fixed shuffled order.
    static func chunks() -> [Rect] {
        var all: [Rect] = []
        for y in 0..<16 {
            for x in 0..<16 {
                all.append(
                    Rect(
                        minX: Double(x) * 256, minY: Double(y) * 256, maxX: Double(x + 1) * 256,
                        maxY: Double(y + 1) * 256))
            }
        }
        var random = BoxSource.Random(state: 7)
        for i in all.indices.reversed() {
            all.swapAt(i, Int(random.next() % UInt64(i + 1)))
        }
        return all
    }

    /// Asked for every chunk once, in any order, the placements come out each exactly once,
    /// each feature is made once (a line crossing blocks too), and nothing is left waiting.
    /// With no budget at all, blocks go as soon as a question is done: still each placement
    /// exactly once, only made again.
    @Test(arguments: [Int.max, 0])
    func eachPlacementIsHandedOverOnce(budget: Int) throws {
        let layer = Layer(points: 600, lines: 40)
        let waiting = layer.waiting(budget: budget)
        var seen: [PlacementCandidate.ID: Int] = [:]
        for chunk in Self.chunks() {
            for p in try waiting.take(layer: 0, anchoredIn: chunk)
            where p.anchor.x >= chunk.minX && p.anchor.x < chunk.maxX && p.anchor.y >= chunk.minY
                && p.anchor.y < chunk.maxY
            {
                seen[p.id, default: 0] += 1
            }
        }
        #expect(seen.count == layer.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        if budget == .max {
            #expect(layer.made.allSatisfy { $0 == 1 }, "made \(layer.made.max() ?? 0) times")
            #expect(waiting.waitingCount == 0)
        } else {
            #expect(layer.made.contains { $0 > 1 })  // the budget did something
        }
    }

    /// A chunk asked for again (the engine dropped it) gets the same placements: its block is
    /// read again.
    @Test func aChunkAskedAgainIsReadAgain() throws {
        let layer = Layer(points: 300, lines: 20)
        let waiting = layer.waiting(budget: .max)
        let chunk = Rect(minX: 1280, minY: 1280, maxX: 1536, maxY: 1536)
        let first = try waiting.take(layer: 0, anchoredIn: chunk).map(\.id)
        let second = try waiting.take(layer: 0, anchoredIn: chunk).map(\.id)
        #expect(!first.isEmpty)
        #expect(Set(first) == Set(second))
        #expect(layer.made.contains { $0 == 2 })
    }

    /// A whole-world view at zoom 0 is one chunk listing every place. Its placements are read,
    /// handed to the engine and sorted in pages: no array of more than a page is made, so they
    /// are held once and a page over. (The list used to grow as one array, which holds its old
    /// and its new buffer at once, and the engine sorted it with a buffer of half of it: at
    /// 300,000 places, 30 MB held twice over, most of a worker's heap peak at zoom 0.)
    @Test(arguments: [3000, 9000])
    func aWholeWorldListGrowsByPages(count: Int) throws {
        // A page reserves `pageSize` placements; the allocator may give a little more (a
        // mapped block is rounded up to whole 4 KB pages: 2,090), never twice as many.
        let page = PlacementPages.pageSize + 4096 / MemoryLayout<PlacementCandidate>.stride
        let view = try View.tiles(z: 0, x: 0, y: 0, columns: 1, rows: 1, tileSize: 256, pixelRatio: 1)
        let space = try Self.space(Self.places(count), view)
        let placed = try space.placedLabels(in: view.globalBounds)
        #expect(!placed.isEmpty)
        #expect(space.engine.loadedCandidates == count)
        #expect(space.engine.largestPageCapacity <= page)
        #expect(
            space.peakWaitingPageCapacity <= page,
            "a list of \(space.peakWaitingPageCapacity) placements grew as one")
    }

    /// The label space of `map` in `view`, as a renderer makes it.
    static func space(_ map: LoadedMap, _ view: View) throws -> LabelSpace {
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        return LabelSpace(
            map: map, view: view, text: text, images: try ImageLibrary(document: map.document),
            readers: LayerReaders(map: map))
    }

    /// `count` labelled places spread over the world.
    static func places(_ count: Int) throws -> LoadedMap {
        var features: [String] = []
        var random = BoxSource.Random(state: 3)
        for i in 0..<count {
            features.append(
                TestMap.point(random.unit() * 340 - 170, random.unit() * 160 - 80, #"{"name": "P\#(i)"}"#))
        }
        return try TestMap.load(
            features: features, layers: [#"{"name": "places", "label": {"attribute": "name", "size": 10}}"#])
    }

    /// A whole-world view of a growing number of places: once the engine has its chunks, the
    /// label space keeps none of their placements (it used to keep them all, about 240 bytes
    /// a place), though the engine holds every one.
    @Test(arguments: [500, 2000])
    func aWholeWorldViewKeepsNothingWaiting(count: Int) throws {
        let space = try Self.space(
            Self.places(count), View.tiles(z: 2, x: 0, y: 0, columns: 4, rows: 4, tileSize: 256, pixelRatio: 1))
        let placed = try space.placedLabels(in: Rect(minX: 0, minY: 0, maxX: 1024, maxY: 1024))
        #expect(!placed.isEmpty)
        #expect(space.engine.loadedCandidates == count)
        #expect(space.madeBytes < 16 << 10, "\(space.madeBytes) bytes waiting for \(count) places")
    }
}
