import Foundation
import Geodesy
import Testing

@testable import Render

/// Candidates for the engine without fonts: boxes around random anchors, made from a seed, so
/// that the engine can be checked against the exact greedy placement on sets of any size.
final class BoxSource: PlacementSource {
    let all: [PlacementCandidate]
    let reach: Double
    /// Calls of `candidates(anchoredIn:)`, and the candidates they returned.
    private(set) var queries = 0
    private(set) var handedOut = 0

    init(_ candidates: [PlacementCandidate], reach: Double) {
        all = candidates
        self.reach = reach
    }

    func candidates(anchoredIn rect: Rect) -> PlacementPages {
        queries += 1
        let found = all.filter {
            $0.anchor.x >= rect.minX && $0.anchor.x < rect.maxX && $0.anchor.y >= rect.minY && $0.anchor.y < rect.maxY
        }
        handedOut += found.count
        return PlacementPages(found)
    }

    /// A map label of feature `feature` in layer 0 (one rule, one instance), at `position`
    /// among its alternatives.
    static func label(
        _ feature: Int, priority: Double = 0, position: Int = 0, anchor: PlanePoint, boxes: [Rect],
        allowOverlap: Bool = false, ignorePlacement: Bool = false
    ) -> PlacementCandidate {
        PlacementCandidate(
            owner: PlacementCandidate.Owner(kind: .mapLabel, layer: 0, rule: 0, feature: feature, instance: 0),
            priority: priority, position: position, anchor: anchor, boxes: boxes, allowOverlap: allowOverlap,
            ignorePlacement: ignorePlacement)
    }

    /// SplitMix64: a fixed sequence for a seed, on every machine.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// `count` labels in a `side` x `side` square from (origin, origin): text-like boxes 12 px
    /// high and 24 to 120 px wide centred on their anchors, priorities 0 to 3 at random (then
    /// file order), and, with `alternatives`, a second position above its anchor for every third.
    static func labels(
        count: Int, side: Double, origin: Double = 0, seed: UInt64 = 1, alternatives: Bool = false
    ) -> BoxSource {
        var random = Random(state: seed)
        var candidates: [PlacementCandidate] = []
        for i in 0..<count {
            let x = origin + random.unit() * side
            let y = origin + random.unit() * side
            let width = 24 + 96 * random.unit()
            let priority = Double(random.next() % 4)
            let anchor = PlanePoint(x: x, y: y)
            candidates.append(
                label(
                    i, priority: priority, anchor: anchor,
                    boxes: [Rect(minX: x - width / 2, minY: y - 6, maxX: x + width / 2, maxY: y + 6)]))
            if alternatives && i % 3 == 0 {
                candidates.append(
                    label(
                        i, priority: priority, position: 1, anchor: anchor,
                        boxes: [Rect(minX: x - width / 2, minY: y - 20, maxX: x + width / 2, maxY: y - 8)]))
            }
        }
        return BoxSource(candidates, reach: 64)
    }

    /// The exact greedy placement: in placement order, each candidate placed unless a placed
    /// one blocks it. Placed candidates are bucketed in 64 px cells as they come.
    func greedy() -> [PlacementCandidate] {
        struct Cell: Hashable {
            let x: Int
            let y: Int
        }
        var cells: [Cell: [Int]] = [:]
        var placed: [PlacementCandidate] = []
        var placedOwners = Set<PlacementCandidate.Owner>()
        func cellsOf(_ r: Rect) -> [Cell] {
            var out: [Cell] = []
            for y in Int((r.minY / 64).rounded(.down))...Int((r.maxY / 64).rounded(.down)) {
                for x in Int((r.minX / 64).rounded(.down))...Int((r.maxX / 64).rounded(.down)) {
                    out.append(Cell(x: x, y: y))
                }
            }
            return out
        }
        for q in all.sorted(by: { $0.outranks($1) }) {
            if placedOwners.contains(q.owner) { continue }
            var blocked = false
            if !q.allowOverlap {
                search: for box in q.boxes {
                    for cell in cellsOf(box) {
                        for p in cells[cell, default: []] where placed[p].blocks(q) {
                            blocked = true
                            break search
                        }
                    }
                }
            }
            if blocked { continue }
            placedOwners.insert(q.owner)
            placed.append(q)
            if !q.ignorePlacement {
                for cell in Set(q.boxes.flatMap(cellsOf)) { cells[cell, default: []].append(placed.count - 1) }
            }
        }
        return placed
    }

    var bounds: Rect { all.reduce(Rect.empty) { $0.union($1.bounds) } }
}

/// A placed candidate's identity: owner and position.
struct Placed: Hashable {
    let owner: PlacementCandidate.Owner
    let position: Int

    init(_ c: PlacementCandidate) {
        owner = c.owner
        position = c.rank.position
    }
}

@Suite struct PlacementEngineTests {
    /// The engine's answer never places two candidates that clash, and is part of the greedy
    /// placement; with alternatives, an owner gets at most one position, the first free one.
    @Test(arguments: [false, true])
    func placedIsASubsetOfTheGreedyPlacementWithoutClashes(_ alternatives: Bool) throws {
        let source = BoxSource.labels(count: 3000, side: 1200, seed: 7, alternatives: alternatives)
        let engine = PlacementEngine(source: source)
        let placed = try engine.placed(touching: source.bounds)
        let greedy = Set(source.greedy().map(Placed.init))
        #expect(placed.count > 300)
        for c in placed { #expect(greedy.contains(Placed(c)), "\(c.owner) is not placed by the greedy rule") }
        var owners = Set<PlacementCandidate.Owner>()
        for (i, a) in placed.enumerated() {
            #expect(owners.insert(a.owner).inserted, "\(a.owner) placed twice")
            for b in placed[(i + 1)...] { #expect(!a.overlaps(b), "\(a.owner) overlaps \(b.owner)") }
        }
        if alternatives {
            // Some labels only fit at their second position.
            #expect(placed.contains { $0.rank.position == 1 })
        }
    }

    /// One round (and no second phase) places exactly the candidates that no higher-ranked
    /// candidate blocks: the definition, checked pair by pair.
    @Test func oneRoundIsTheLocalRule() throws {
        let source = BoxSource.labels(count: 800, side: 600, seed: 3)
        let engine = PlacementEngine(source: source, rounds: 1, fallbackRounds: 0)
        let placed = Set(try engine.placed(touching: source.bounds).map(Placed.init))
        for q in source.all {
            let free = !source.all.contains { $0.outranks(q) && $0.blocks(q) }
            #expect(placed.contains(Placed(q)) == free, "\(q.owner)")
        }
    }

    /// Any region asked alone, by an engine that has seen nothing else, gets the answer the
    /// whole set gets: placement is decided locally. Trimming the cache to nothing between
    /// requests changes nothing either.
    @Test func regionsAgreeWithTheWhole() throws {
        let source = BoxSource.labels(count: 6000, side: 2400, seed: 11, alternatives: true)
        let whole = PlacementEngine(source: source)
        let all = try whole.placed(touching: source.bounds)
        let trimmed = PlacementEngine(source: source)
        for (x, y, w) in [(0.0, 0.0, 256.0), (1000, 700, 300), (2150, 2150, 256), (512, 1800, 40)] {
            let region = Rect(minX: x, minY: y, maxX: x + w, maxY: y + w)
            let expected = all.filter { c in c.boxes.contains { $0.intersects(region) } }.map(Placed.init)
            let alone = try PlacementEngine(source: source).placed(touching: region).map(Placed.init)
            #expect(alone == expected, "region \(region)")
            #expect(try trimmed.placed(touching: region).map(Placed.init) == expected)
            trimmed.trim(toCandidates: 0)
            #expect(trimmed.cachedCandidates == 0)
        }
    }

    /// Once a chunk and its neighbours are past level 2, the candidates in no set past level
    /// 0 are let go, and once they are at the top level, all but the placed: a crowd keeps
    /// what is placed, and a chunk dropped and asked for again beside them (its levels read
    /// their lower levels) gets the same answer.
    @Test func aCrowdKeepsWhatItsLevelsHold() throws {
        let source = BoxSource.labels(count: 12000, side: 1500, seed: 5, alternatives: true)
        let engine = PlacementEngine(source: source)
        let all = try engine.placed(touching: source.bounds).map(Placed.init)
        #expect(engine.loadedCandidates == source.all.count)
        // Every chunk is at the top level with its neighbours: each keeps what is placed.
        #expect(engine.cachedCandidates == all.count, "\(engine.cachedCandidates) kept, \(all.count) placed")
        #expect(engine.refetches == 0)
        // One chunk dropped (all were used last by the same question), then the whole again:
        // its levels read its neighbours' lower levels, read from whole copies of them (and
        // of theirs).
        engine.trim(toCandidates: engine.cachedCandidates - 1)
        #expect(try engine.placed(touching: source.bounds).map(Placed.init) == all)
        #expect(engine.refetches > 1)
        #expect(all.count > 500)
    }

    /// A question leaves the chunks around it at levels falling with the distance (the levels
    /// its own need); those whose neighbourhood is past an even level keep that level's set.
    /// Questions in any order, with chunks dropped between them, get the answers of an
    /// engine that computes each afresh, though some chunks are loaded again for the levels
    /// they let go of.
    @Test func compactedLevelsGiveTheSameAnswers() throws {
        // In file order west to east, all of one priority: long chains of overlaps, where
        // every level's set counts.
        let crowd = BoxSource.labels(count: 20000, side: 5000, seed: 9)
        let sorted = crowd.all.sorted { $0.anchor.x < $1.anchor.x }.enumerated().map { i, c in
            BoxSource.label(i, anchor: c.anchor, boxes: Array(c.boxes))
        }
        let source = BoxSource(sorted, reach: 64)
        let engine = PlacementEngine(source: source)
        func view(_ x: Double, _ y: Double) -> Rect { Rect(minX: x, minY: y, maxX: x + 1024, maxY: y + 1024) }
        _ = try engine.placed(touching: view(0, 0))
        // Kept past level 2 alone: 12,930 of 16,947; past the even levels: 11,684.
        #expect(
            engine.cachedCandidates * 4 < engine.loadedCandidates * 3,
            "\(engine.cachedCandidates) of \(engine.loadedCandidates) kept")
        var random = BoxSource.Random(state: 3)
        for _ in 0..<4 {
            engine.trim(toCandidates: engine.cachedCandidates / 2)
            let asked = view(random.unit() * 4000, random.unit() * 4000)
            let fresh = try PlacementEngine(source: source).placed(touching: asked).map(Placed.init)
            #expect(try engine.placed(touching: asked).map(Placed.init) == fresh)
        }
        #expect(engine.refetches > 0)
    }

    /// `allowOverlap` is placed whatever it overlaps (and still blocks later ones);
    /// `ignorePlacement` blocks nothing, but is itself blocked.
    @Test func allowOverlapAndIgnorePlacement() throws {
        func candidate(_ feature: Int, x: Double, allow: Bool = false, ignore: Bool = false) -> PlacementCandidate {
            BoxSource.label(
                feature, anchor: PlanePoint(x: x, y: 50), boxes: [Rect(minX: x - 20, minY: 44, maxX: x + 20, maxY: 56)],
                allowOverlap: allow, ignorePlacement: ignore)
        }
        func placed(_ candidates: [PlacementCandidate]) throws -> [Int] {
            let source = BoxSource(candidates, reach: 30)
            return try PlacementEngine(source: source).placed(touching: source.bounds).map(\.owner.feature)
        }
        // 0 blocks 1; 2 overlaps 1 only.
        #expect(try placed([candidate(0, x: 0), candidate(1, x: 30), candidate(2, x: 60)]) == [0, 2])
        // 1 may overlap: it is placed and blocks 2.
        #expect(try placed([candidate(0, x: 0), candidate(1, x: 30, allow: true), candidate(2, x: 60)]) == [0, 1])
        // 0 blocks nothing: 1 is placed over it.
        #expect(try placed([candidate(0, x: 0, ignore: true), candidate(1, x: 30), candidate(2, x: 60)]) == [0, 1])
        // 1 blocks nothing but is blocked by 0; 2 stands.
        #expect(try placed([candidate(0, x: 0), candidate(1, x: 30, ignore: true), candidate(2, x: 60)]) == [0, 2])
    }

    /// The engine's overlap tests grow as n log n (in fact about linearly) on a growing set of
    /// labels in a fixed area, from sparse to a crowd where each box overlaps dozens: the
    /// count stays under C · n · log2 n with C = 2 (measured: 0.5 to 0.9).
    @Test func overlapTestsStayWithinNLogN() throws {
        var ratios: [String] = []
        for n in [1000, 4000, 16000, 64000] {
            let source = BoxSource.labels(count: n, side: 4096, seed: UInt64(n))
            let engine = PlacementEngine(source: source)
            _ = try engine.placed(touching: source.bounds)
            let bound = 2 * Double(n) * log2(Double(n))
            ratios.append("\(n): \(engine.overlapTests)")
            #expect(Double(engine.overlapTests) <= bound, "\(n) labels: \(engine.overlapTests) overlap tests")
            // Each candidate is fetched once and evaluated once per level at most (the rounds
            // of both phases and the level between them).
            #expect(source.handedOut == n)
            #expect(engine.evaluations <= n * (engine.rounds + 1 + engine.fallbackRounds))
        }
        print("overlap tests:", ratios.joined(separator: ", "))
    }
}

extension PlacementEngineTests {
    /// How close the engine comes to the exact greedy placement G, on a crowd in random file
    /// order and on the same crowd in file order west to east, all of one priority (the chains
    /// of overlaps the first phase cannot settle). Measured (16,000 labels in 4096 px, k = 7
    /// then 5): see the printed line; the test holds the engine to at least 95% of G's count,
    /// and on random order to at least 95% of G's own labels.
    @Test func agreementWithTheGreedyPlacement() throws {
        let random = BoxSource.labels(count: 16000, side: 4096, seed: 16000)
        let sorted = random.all.sorted { $0.anchor.x < $1.anchor.x }.enumerated().map { i, c in
            BoxSource.label(i, anchor: c.anchor, boxes: Array(c.boxes))
        }
        for (name, source) in [("random", random), ("sorted", BoxSource(sorted, reach: 64))] {
            let greedy = Set(source.greedy().map(Placed.init))
            let engine = PlacementEngine(source: source)
            let placed = Set(try engine.placed(touching: source.bounds).map(Placed.init))
            let firstPhase = Set(
                try PlacementEngine(source: source, fallbackRounds: 0).placed(touching: source.bounds).map(Placed.init))
            let common = placed.intersection(greedy).count
            print(
                "agreement \(name): G \(greedy.count), engine \(placed.count) (\(common) of them in G),"
                    + " first phase alone \(firstPhase.count)")
            #expect(firstPhase.isSubset(of: greedy))
            #expect(Double(placed.count) >= 0.95 * Double(greedy.count), "\(name)")
            if name == "random" { #expect(Double(common) >= 0.95 * Double(greedy.count)) }
        }
    }
}
