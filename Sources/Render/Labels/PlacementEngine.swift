import Geodesy
import MapModel

/// Where the placement engine gets its candidates: those of one resolution, by area.
protocol PlacementSource: AnyObject {
    /// How far a candidate's boxes can reach from its anchor, in pixels along either axis.
    var reach: Double { get }
    /// At least every candidate anchored in `rect`, taken as half-open: [minX, maxX) x
    /// [minY, maxY) (more do no harm: the engine keeps those anchored in the part it asked
    /// for).
    func candidates(anchoredIn rect: Rect) throws -> PlacementPages
}

/// Decides which candidates are placed, the same way for every view, tile and request at a
/// resolution, from the candidates within a bounded distance, in O(n log n).
///
/// The reference is the greedy placement G: candidates in placement order, each placed
/// unless a placed one blocks it (overlaps it, or is an earlier position of its owner). G is
/// exact but global: a label's fate can hang on a chain of overlaps across the map. The
/// engine computes instead, for `rounds` = k (odd),
///
///     placed_0(q) = true
///     placed_j(q) = no candidate that comes before q and blocks q has placed_{j-1}
///
/// By induction placed_j ⊆ G for odd j and placed_j ⊇ G for even j: placed_k never places two
/// candidates that clash, equals G wherever chains of overlaps are shorter than k, and
/// depends only on the candidates within k conflict distances (2 × reach each), so any view
/// computes it alone and every view agrees.
///
/// Chains longer than k come from placement orders that follow the ground (a file sorted
/// west to east over a crowd of labels, all of one priority): there placed_k holds only the
/// first few labels of each chain. So a second phase takes the candidates left undecided
/// (not placed, and clashing with nothing placed) and runs `fallbackRounds` more rounds on
/// them alone, in an order where priority and layer still come first but file order gives
/// way to a fixed pseudo-random one. Random orders have short chains, so the second phase
/// settles what the first could not; where the first phase settled everything, it adds
/// nothing. The union is still a set of candidates that do not clash, the same in every view.
///
/// Candidates are kept in square chunks by anchor (at least 2 × reach a side, so a
/// candidate's rivals are anchored in the 3 x 3 chunks around its own) and levels are
/// computed chunk by chunk: a level of a chunk needs the level below of its neighbours.
/// Each chunk buckets the members of each level's set by the cells their boxes touch, in
/// the phase's order, so "does an earlier member of the level below block me?" looks only
/// at earlier members in the cells of the candidate's boxes and stops at the first that
/// overlaps. Odd levels are sets of boxes that do not overlap (few per cell); even levels
/// hold every box of a crowd, but there the first earlier box in a cell the candidate
/// covers is usually a hit. A level's buckets are dropped once the chunk and its neighbours
/// are past it (and made again from the levels if a chunk loaded later needs them). Chunks
/// stay cached for the next view at this resolution (but for the rows a north-to-south sweep
/// has left behind: `forgetRows`); `trim` bounds them by their estimated bytes
/// (`cachedBytes`), empty chunks included: a pyramid's deep zoom visits tens of thousands of
/// them.
final class PlacementEngine {
    /// Rounds of each phase (odd), chosen by comparing with the exact greedy placement on
    /// random and sorted crowds (see `PlacementEngineTests.agreementWithTheGreedyPlacement`).
    static let defaultRounds = 7
    static let defaultFallbackRounds = 5
    /// Cell side over a typical box's smaller side (see `buckets`), chosen by counting tests.
    static let defaultCellFactor = 1.0

    /// Rounds of the first phase, in placement order (odd).
    let rounds: Int
    /// Rounds of the second phase, on what the first left undecided (odd, or 0 for none).
    let fallbackRounds: Int
    let cellFactor: Double
    /// Where candidates come from: the label space asking now. The workers of a job share one
    /// engine per resolution (`PlacementShare`), each asking with its own space (its readers
    /// and text engine), which gives the same candidates.
    unowned var source: any PlacementSource
    let reach: Double
    let chunkSize: Double
    private var chunks: [ChunkKey: Chunk] = [:]
    private var clock = 0

    /// Box overlap tests made so far: what the cost bound is stated in.
    private(set) var overlapTests = 0
    /// Candidates whose level was computed so far (each counted once per level).
    private(set) var evaluations = 0
    /// Candidates held in the cached chunks.
    private(set) var cachedCandidates = 0
    /// Candidates fetched from the source so far (a chunk's once, unless it is dropped and
    /// asked for again).
    private(set) var loadedCandidates = 0
    /// Compacted chunks fetched again, whole, for a level they let go of (see
    /// `chunk(_:reading:)`).
    private(set) var refetches = 0
    /// Estimated heap bytes of the cached chunks: candidates, levels and buckets.
    private(set) var cachedBytes = 0
    /// Called now and then during a long computation with the evaluations so far.
    var progress: ((Int) -> Void)?
    /// How many evaluations between calls of `progress`.
    static let progressInterval = 20_000
    private var nextProgress = PlacementEngine.progressInterval

    /// The smallest chunk side, in pixels: small reaches would otherwise make many chunks.
    static let minimumChunkSize = 256.0

    init(
        source: any PlacementSource, rounds: Int = PlacementEngine.defaultRounds,
        fallbackRounds: Int = PlacementEngine.defaultFallbackRounds,
        cellFactor: Double = PlacementEngine.defaultCellFactor
    ) {
        precondition(rounds >= 1 && rounds % 2 == 1, "rounds must be odd")
        precondition(fallbackRounds >= 0 && (fallbackRounds == 0 || fallbackRounds % 2 == 1))
        precondition(rounds + 1 + fallbackRounds < UInt32.bitWidth, "too many rounds")
        self.source = source
        self.rounds = rounds
        self.fallbackRounds = fallbackRounds
        self.cellFactor = cellFactor
        reach = max(0, source.reach.isFinite ? source.reach : 0)
        chunkSize = max(2 * reach, PlacementEngine.minimumChunkSize)
    }

    /// The levels: 0...rounds are the first phase (0: every candidate); `undecided` is the
    /// second phase's level 0; the last level ends it.
    private var undecided: Int { rounds + 1 }
    private var top: Int { fallbackRounds == 0 ? rounds : rounds + 1 + fallbackRounds }

    /// The placed candidates whose boxes touch `rect`, in placement order. `client`: who asks
    /// (a worker's label space, when several share the engine), for the sweep (`forgetRows`).
    func placed(touching rect: Rect, client: ObjectIdentifier? = nil) throws -> [PlacementCandidate] {
        guard !rect.isEmpty else { return [] }
        clock += 1
        freedByQuestion = 0
        defer { copies.removeAll() }
        forgetRows(before: rect, client: client ?? ObjectIdentifier(self))
        var found: [PlacementCandidate] = []
        for key in keys(anchoredIn: rect.expanded(by: reach)) {
            let chunk = try ensure(key, level: top)
            for (i, c) in chunk.candidates.enumerated()
            where chunk.has(i, level: rounds) || chunk.has(i, level: top) {
                if c.boxes.contains(where: { $0.intersects(rect) }) { found.append(c) }
            }
        }
        if freedByQuestion >= PlacementEngine.giveBackBytes { MallocTuning.giveBack() }
        return found.sorted { $0.outranks($1) }
    }

    /// Bytes let go by compaction during the current question.
    private var freedByQuestion = 0
    /// Past this many in one question, the free pages are given back to the system: a
    /// whole-world view lets go of tens of megabytes in the thread that placed it, which glibc
    /// keeps in that thread's arena, where another worker placing the next zoom cannot use
    /// them (the whole map of `make bench-large` held some 20 MB more at zoom 0-4). Not for
    /// the few chunks a deep zoom's question compacts: each time costs system time.
    static let giveBackBytes = 16 << 20

    /// Drops the least recently used chunks until at most `limit` candidates are cached. They
    /// are computed again when asked for, with the same result.
    func trim(toCandidates limit: Int) {
        trim { $0.cachedCandidates <= limit }
    }

    /// Drops the least recently used chunks until their estimated bytes are at most `limit`.
    func trim(toBytes limit: Int) {
        trim { $0.cachedBytes <= limit }
    }

    private func trim(until done: (PlacementEngine) -> Bool) {
        guard !done(self) else { return }
        for (key, _) in chunks.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard !done(self) else { break }
            drop(key)
        }
    }

    /// Drops a cached chunk and its share of the counts; it is computed again when asked for,
    /// with the same result.
    private func drop(_ key: ChunkKey) {
        guard let chunk = chunks.removeValue(forKey: key) else { return }
        cachedCandidates -= chunk.candidates.count
        cachedBytes -= chunk.bytes
    }

    // MARK: - Rows behind a sweep

    /// While every question comes at or south of the one before (a tile job: zoom by zoom,
    /// metatile rows from the north), the chunk rows north of all that the last question
    /// could touch are never touched again: they are dropped as the questions move on, so a
    /// deep zoom keeps the rows around its current metatile row, not every row it went
    /// through until the budget is full. The first question that would touch a dropped row
    /// (`serve`, an image, a job in another order) ends this for the engine: that question
    /// and all later ones compute what they need again, or find it cached, as before. Workers
    /// sharing the engine (`PlacementShare`) each sweep: rows go once every one of them has
    /// moved past them, with a question's height of rows to spare for a worker not yet asking.
    private(set) var sweeping = true
    /// Every chunk row before this one has been dropped (while sweeping).
    private(set) var forgottenRow = Int.min

    /// The first chunk row a question about `rect` touches: the rows holding anchors within
    /// `reach`, and the row above, whose levels the top level of theirs reads. The levels
    /// below reach `top` rows further (see `ensure`), but a sweep's question does not go
    /// north: the row of views before it (as wide, a view's height north) left the rows
    /// north of this one's at every level this one's recursion asks of them, so it stops at
    /// the row above. Were it to go further, a dropped row would be fetched and computed
    /// again, with the same result (and held until the sweep moves on).
    private func firstRowTouched(by rect: Rect) -> Int {
        chunkIndex(rect.minY - reach) - 1
    }

    /// The first row each client's last question touched. Workers sharing the engine sweep
    /// side by side, one a metatile or a row behind another: a row goes once every client
    /// has moved past it.
    private var clientRows: [ObjectIdentifier: Int] = [:]

    /// A client gone (a worker done with this resolution) no longer holds rows back.
    func leave(_ client: ObjectIdentifier) {
        clientRows[client] = nil
    }

    private func forgetRows(before rect: Rect, client: ObjectIdentifier) {
        guard sweeping else { return }
        let asked = firstRowTouched(by: rect)
        if asked < forgottenRow {
            sweeping = false
            clientRows = [:]
            return
        }
        clientRows[client] = asked
        // A question's height of rows more: a worker's first question may come a row of views
        // behind the others' (it is not a client until it asks).
        let slack = chunkIndex(rect.height) + 2
        let first = (clientRows.values.min() ?? asked) - slack
        guard first > forgottenRow else { return }
        forgottenRow = first
        // The keys first: removing while iterating the dictionary itself would copy it whole.
        for key in chunks.keys.filter({ $0.y < first }) { drop(key) }
    }

    /// Chunks cached, empty ones included.
    var cachedChunks: Int { chunks.count }

    /// The largest page of candidates a cached chunk holds (see `PlacementPages`).
    var largestPageCapacity: Int { chunks.values.reduce(0) { max($0, $1.candidates.largestPageCapacity) } }

    // MARK: - Chunks

    private struct ChunkKey: Hashable {
        let x: Int
        let y: Int
    }

    /// The candidates anchored in one chunk, in placement order, with the levels computed so far.
    private final class Chunk {
        private(set) var candidates: PlacementPages
        /// The candidates' indices in the second phase's order.
        private(set) var fallbackOrder: [UInt32]
        /// Each candidate's place in that order.
        private(set) var fallbackRank: [UInt32]
        /// Bit j of levels[i]: whether candidate i is in level j's set, for j up to `level`.
        var levels: [UInt32]
        var level = 0
        /// buckets[j]: the members of level j's set that can block others, by cell; nil once
        /// the chunk and its neighbours are past level j (made again from `levels` if a chunk
        /// loaded later needs it).
        var buckets: [BoxBuckets?] = []
        let key: ChunkKey
        /// A whole copy of a compacted chunk, for one question (see `chunk(_:reading:)`).
        let isCopy: Bool
        var lastUse = 0
        /// Estimated heap bytes: the chunk, its candidates and levels, its buckets so far.
        var bytes: Int
        /// The lowest level whose set the chunk still holds whole, with every level above it
        /// (and every odd level): 0 until it lets go of candidates (see `keep`).
        private(set) var intactFrom = 0
        /// Whether only the placed candidates are kept (see `finalise`).
        private(set) var finalised = false

        init(_ candidates: PlacementPages, key: ChunkKey, isCopy: Bool = false) {
            self.candidates = candidates
            self.key = key
            self.isCopy = isCopy
            // 32-bit indices: a chunk of a whole-world view holds every place.
            fallbackOrder = (0..<UInt32(candidates.count)).sorted {
                PlacementEngine.fallbackBefore(candidates[Int($0)], candidates[Int($1)])
            }
            fallbackRank = Chunk.places(in: fallbackOrder)
            levels = [UInt32](repeating: 1, count: candidates.count)
            bytes = Chunk.bytes(of: candidates)
        }

        /// Each candidate's place in `order` (a permutation of the candidates' indices).
        private static func places(in order: [UInt32]) -> [UInt32] {
            var place = [UInt32](repeating: 0, count: order.count)
            for (n, i) in order.enumerated() { place[Int(i)] = UInt32(n) }
            return place
        }

        private static func bytes(of candidates: PlacementPages) -> Int {
            Chunk.fixedBytes + MemoryCost.array(candidates.count, of: PlacementCandidate.self)
                + candidates.reduce(0) { $0 + $1.heapBytes } + 3 * MemoryCost.array(candidates.count, of: UInt32.self)
        }

        /// Keeps only the candidates in level `level`'s set (even, at most `rounds` - 1), in
        /// their order, with their levels; the buckets go (made again from the levels when
        /// asked for). The first phase's sets nest: odd levels grow and even levels shrink
        /// towards the greedy placement, every odd one within every even one; and the second
        /// phase takes only candidates that clash with nothing the first placed, which every
        /// even level holds. So every later level's set lies within this one, and the later
        /// levels of the chunk and its neighbours come out the same; the sets below `level`
        /// - 1 (but the odd ones) are lost, which only a neighbour loaded again reads (from a
        /// whole copy: see `PlacementEngine.chunk(_:reading:)`). Returns the bytes given back.
        func compact(to level: Int) -> Int {
            precondition(level >= 2 && level % 2 == 0 && self.level >= level && level - 1 > intactFrom)
            intactFrom = level - 1
            return keep(levels: UInt32(1) << level, withFallbackOrder: true)
        }

        /// Keeps only the placed candidates (bits `placed` of their levels), once the chunk
        /// and its neighbours are at the top level `top`: no level of theirs is computed
        /// again, so only questions read the chunk, and they read what is placed. A
        /// neighbour dropped and loaded again would read its lower levels, from a whole copy
        /// (see `PlacementEngine.chunk(_:reading:)`). Returns the bytes given back.
        func finalise(placed: UInt32, top: Int) -> Int {
            precondition(!finalised && level == top)
            intactFrom = top
            finalised = true
            return keep(levels: placed, withFallbackOrder: false)
        }

        /// Keeps the candidates with a bit of `mask` in their levels, in their order; the
        /// fallback order too when a level may still read it. Returns the bytes given back.
        private func keep(levels mask: UInt32, withFallbackOrder: Bool) -> Int {
            let kept = candidates.indices.filter { levels[$0] & mask != 0 }
            var newIndex = [UInt32](repeating: UInt32.max, count: candidates.count)
            for (n, i) in kept.enumerated() { newIndex[i] = UInt32(n) }
            // One page of the very size, or full pages: no list of them all besides.
            var made = PlacementPages()
            if kept.count <= PlacementPages.pageSize {
                var list: [PlacementCandidate] = []
                list.reserveCapacity(kept.count)
                for i in kept { list.append(candidates[i]) }
                made = PlacementPages(list)
            } else {
                for i in kept { made.append(candidates[i]) }
            }
            let before = bytes
            candidates = made
            levels = kept.map { levels[$0] }
            if withFallbackOrder {
                fallbackOrder = fallbackOrder.compactMap { newIndex[Int($0)] == UInt32.max ? nil : newIndex[Int($0)] }
                fallbackRank = Chunk.places(in: fallbackOrder)
            } else {
                fallbackOrder = []
                fallbackRank = []
            }
            buckets = buckets.map { _ in nil }
            bytes = Chunk.bytes(of: candidates)
            return before - bytes
        }

        /// The object, its dictionary slot and its arrays' headers.
        static let fixedBytes = 256

        func has(_ i: Int, level: Int) -> Bool { levels[i] & (1 << level) != 0 }
    }

    /// The second phase's order: priority and layer first, as in placement order, then a
    /// fixed pseudo-random order of features instead of file order (an owner's positions stay
    /// together and in order).
    static func fallbackBefore(_ a: PlacementCandidate, _ b: PlacementCandidate) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        if a.owner.layer != b.owner.layer { return a.owner.layer < b.owner.layer }
        let ha = scramble(a.owner.layer, a.owner.feature)
        let hb = scramble(b.owner.layer, b.owner.feature)
        if ha != hb { return ha < hb }
        return a.outranks(b)
    }

    /// SplitMix64's finaliser over (layer, feature): the same on every machine and run.
    private static func scramble(_ layer: Int, _ feature: Int) -> UInt64 {
        var z = UInt64(truncatingIfNeeded: layer) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: feature)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private func chunkIndex(_ v: Double) -> Int {
        let down = (v / chunkSize).rounded(.down)
        guard !down.isNaN else { return 0 }
        return Int(min(max(down, -1e15), 1e15))
    }

    private func rect(_ key: ChunkKey) -> Rect {
        Rect(
            minX: Double(key.x) * chunkSize, minY: Double(key.y) * chunkSize, maxX: Double(key.x + 1) * chunkSize,
            maxY: Double(key.y + 1) * chunkSize)
    }

    /// The 3 x 3 chunks centred on `key`, itself included, row by row (lazily: asked for
    /// every level of every chunk, and of each neighbour's neighbours).
    private func around(_ key: ChunkKey) -> LazyMapSequence<[(dx: Int, dy: Int)], ChunkKey> {
        PlacementEngine.neighbourhood.lazy.map { ChunkKey(x: key.x + $0.dx, y: key.y + $0.dy) }
    }

    private static let neighbourhood = (-1...1).flatMap { dy in (-1...1).map { dx in (dx: dx, dy: dy) } }

    /// The chunks holding anchors in `rect`, row by row.
    private func keys(anchoredIn rect: Rect) -> [ChunkKey] {
        var keys: [ChunkKey] = []
        for y in chunkIndex(rect.minY)...chunkIndex(rect.maxY) {
            for x in chunkIndex(rect.minX)...chunkIndex(rect.maxX) { keys.append(ChunkKey(x: x, y: y)) }
        }
        return keys
    }

    /// The chunk's candidates, fetched and sorted the first time.
    private func load(_ key: ChunkKey) throws -> Chunk {
        if let chunk = chunks[key] {
            chunk.lastUse = clock
            return chunk
        }
        let chunk = try fetch(key)
        chunk.lastUse = clock
        chunks[key] = chunk
        cachedCandidates += chunk.candidates.count
        cachedBytes += chunk.bytes
        return chunk
    }

    /// Chunk `key` made from the source: its candidates and level 0's buckets.
    private func fetch(_ key: ChunkKey, isCopy: Bool = false) throws -> Chunk {
        let chunk = Chunk(try anchored(in: key), key: key, isCopy: isCopy)
        // An empty chunk needs no buckets: nothing in it blocks, and nothing is computed for it.
        if !chunk.candidates.isEmpty {
            let first = buckets(chunk, level: 0, area: rect(key))
            chunk.buckets = [first]
            chunk.bytes += first.estimatedBytes
        }
        return chunk
    }

    /// The candidates anchored in chunk `key`, in placement order.
    private func anchored(in key: ChunkKey) throws -> PlacementPages {
        let area = rect(key)
        // Half-open, so that every anchor lies in one chunk.
        // In place: a chunk of a whole-world view holds every place, and a copy is as large.
        var mine = try source.candidates(anchoredIn: area)
        mine.removeAll {
            !($0.anchor.x >= area.minX && $0.anchor.x < area.maxX && $0.anchor.y >= area.minY
                && $0.anchor.y < area.maxY)
        }
        PlacementEngine.sortInPlacementOrder(&mine)
        loadedCandidates += mine.count
        return mine
    }

    /// Sorts candidates in placement order, as a stable sort does (equals keep their order),
    /// by sorting their positions and then moving each candidate once, cycle by cycle. Sorting
    /// the candidates themselves takes a buffer of half of them (Swift's merge sort): 14 MB for
    /// a whole-world chunk of 300,000 places, where their positions take 1.2 MB.
    static func sortInPlacementOrder<List: MutableCollection & RandomAccessCollection>(_ list: inout List)
    where List.Element == PlacementCandidate, List.Index == Int {
        guard list.count > 1 else { return }
        var order = Array(0..<UInt32(list.count))
        order.sort { a, b in
            let x = list[Int(a)]
            let y = list[Int(b)]
            if x.outranks(y) { return true }
            if y.outranks(x) { return false }
            return a < b
        }
        list.permute(by: &order)
    }

    /// The chunk to read level `level`'s set from: the cached one, or, when that has let go of
    /// the set (compacted past it while its neighbours went on), a whole copy made afresh for
    /// the current question. Only a chunk dropped and loaded again beside compacted ones asks
    /// for such a level (a sweep does not come back); the copies' levels are computed as the
    /// cached chunks' were, from the same candidates, so they are the same.
    private func chunk(_ key: ChunkKey, reading level: Int) throws -> Chunk {
        let cached = try load(key)
        guard level < cached.intactFrom else { return cached }
        if let copy = copies[key] { return copy }
        let copy = try fetch(key, isCopy: true)
        copies[key] = copy
        refetches += 1
        return copy
    }

    /// Whole copies of compacted chunks, while a question lasts (see `chunk(_:reading:)`).
    private var copies: [ChunkKey: Chunk] = [:]

    /// The chunk with `level` and those below computed, and its neighbours' up to `level` - 1.
    @discardableResult
    private func ensure(_ key: ChunkKey, level: Int) throws -> Chunk {
        let chunk = try self.chunk(key, reading: level)
        guard chunk.level < level else { return chunk }
        // An empty chunk's levels are empty whatever its neighbours': they need not be loaded.
        // (Without this, a question about one chunk loaded every chunk within `top` chunks.)
        if chunk.candidates.isEmpty {
            chunk.level = top
            return chunk
        }
        for n in around(key) { try ensure(n, level: level - 1) }
        try compute(chunk, key, level: level)
        return chunk
    }

    /// `level` of every candidate of the chunk, from the level below of the 3 x 3 chunks.
    private func compute(_ chunk: Chunk, _ key: ChunkKey, level: Int) throws {
        precondition(chunk.level == level - 1)
        var neighbours: [Chunk] = []
        for n in around(key) {
            let near = try self.chunk(n, reading: level - 1)
            if !near.candidates.isEmpty { neighbours.append(near) }
        }
        let bit = UInt32(1) << level
        for i in chunk.candidates.indices {
            let isIn: Bool
            if level <= rounds {
                isIn = isFree(i, in: chunk, neighbours, level: level - 1, fallback: false)
            } else if level == undecided {
                isIn = !chunk.has(i, level: rounds) && !clashesWithPlaced(i, in: chunk, neighbours)
            } else {
                isIn =
                    chunk.has(i, level: undecided) && isFree(i, in: chunk, neighbours, level: level - 1, fallback: true)
            }
            if isIn { chunk.levels[i] |= bit }
        }
        chunk.level = level
        evaluations += chunk.candidates.count
        if level < top { add(buckets(chunk, level: level, area: rect(key)), to: chunk) }
        release(around: key, below: level)
        if level >= 2 { shrink(around: key) }
        if evaluations >= nextProgress {
            nextProgress = evaluations + PlacementEngine.progressInterval
            progress?(evaluations)
        }
    }

    /// Drops level `level` - 1's buckets of the chunks around `key` whose neighbours (and
    /// themselves) are all past it: only the computation of `level` reads them. A view of the
    /// whole world at a low zoom computes every level of every chunk at once; this keeps a few
    /// levels' buckets instead of all of them.
    private func release(around key: ChunkKey, below level: Int) {
        let done = level - 1
        for n in around(key).compactMap({ self.chunks[$0] }) where n.level >= level && done < n.buckets.count {
            // Needed while a chunk loaded beside it is not past it (one not loaded asks again).
            guard let buckets = n.buckets[done],
                !around(n.key).contains(where: { (chunks[$0]?.level ?? level) < level })
            else { continue }
            n.buckets[done] = nil
            n.bytes -= buckets.estimatedBytes
            cachedBytes -= buckets.estimatedBytes
        }
    }

    /// Lets the chunks around `key` (itself included) go of what no later level of theirs or
    /// their neighbours' reads: a chunk whose neighbourhood (all loaded) is past an even
    /// level keeps that level's set (`Chunk.compact`), and one whose neighbourhood is at the
    /// top keeps what is placed (`Chunk.finalise`). In a crowd (a whole-world view, the rows
    /// ahead of a deep zoom's sweep) that is most of the candidates: the whole map of
    /// `make bench-large` held 132,000 candidates of zoom 2 (12.7 MB) while zoom 3 was placed
    /// when chunks kept level 2's set to the end.
    private func shrink(around key: ChunkKey) {
        // Not while copies are read: a set a pending computation reads could go, and a level
        // asked of a chunk would be read from the chunk or its copy depending on when.
        guard copies.isEmpty else { return }
        let placed = UInt32(1) << rounds | UInt32(1) << top
        for n in around(key).compactMap({ self.chunks[$0] }) where !n.finalised && !n.candidates.isEmpty {
            // One not loaded yet would read every level, level 0 first.
            let lowest = around(n.key).reduce(Int.max) { Swift.min($0, chunks[$1]?.level ?? -1) }
            let count = n.candidates.count
            let freed: Int
            if lowest >= top {
                freed = n.finalise(placed: placed, top: top)
            } else {
                let even = Swift.min(lowest, rounds - 1) & ~1
                guard even >= 2, even - 1 > n.intactFrom else { continue }
                freed = n.compact(to: even)
            }
            cachedCandidates -= count - n.candidates.count
            cachedBytes -= freed
            freedByQuestion += freed
        }
    }

    /// Level `level`'s buckets of a chunk, made again from its levels if they were dropped.
    private func bucket(_ chunk: Chunk, _ level: Int) -> BoxBuckets {
        if let known = chunk.buckets[level] { return known }
        let made = buckets(chunk, level: level, area: rect(chunk.key))
        chunk.buckets[level] = made
        count(made, in: chunk)
        return made
    }

    private func add(_ buckets: BoxBuckets, to chunk: Chunk) {
        chunk.buckets.append(buckets)
        count(buckets, in: chunk)
    }

    /// Counts a chunk's new buckets in its bytes and the cache's (copies are not cached).
    private func count(_ buckets: BoxBuckets, in chunk: Chunk) {
        guard !chunk.isCopy else { return }
        chunk.bytes += buckets.estimatedBytes
        cachedBytes += buckets.estimatedBytes
    }

    /// Whether no member of `level`'s set that comes before candidate `i` (in placement order,
    /// or in the fallback order) blocks it.
    private func isFree(_ i: Int, in chunk: Chunk, _ around: [Chunk], level: Int, fallback: Bool) -> Bool {
        let q = chunk.candidates[i]
        // An earlier position of the same owner.
        for j in sameFeature(i, in: chunk) where j < i && chunk.candidates[j].owner == q.owner {
            if chunk.has(j, level: level) { return false }
        }
        guard !q.allowOverlap else { return true }
        let mine = fallback ? Int(chunk.fallbackRank[i]) : i
        for n in around {
            let buckets = bucket(n, level)
            let sameChunk = n === chunk
            for box in q.boxes {
                guard let cells = buckets.cells(box) else { continue }
                for row in cells.rows {
                    for column in cells.columns {
                        for item in buckets.items(column: column, row: row) {
                            let p = Int(item)
                            // Cells list their members in the phase's order: the rest come after q.
                            let before: Bool
                            if sameChunk {
                                before = fallback ? Int(chunk.fallbackRank[p]) < mine : p < mine
                            } else {
                                before =
                                    fallback
                                    ? PlacementEngine.fallbackBefore(n.candidates[p], q) : n.candidates[p].outranks(q)
                            }
                            if !before { break }
                            overlapTests += 1
                            if n.candidates[p].overlaps(box) { return false }
                        }
                    }
                }
            }
        }
        return true
    }

    /// Whether candidate `i` and a candidate the first phase placed keep each other out,
    /// either way: another position of the same owner, or an overlap where one side may not
    /// be covered by the other.
    private func clashesWithPlaced(_ i: Int, in chunk: Chunk, _ around: [Chunk]) -> Bool {
        let q = chunk.candidates[i]
        for j in sameFeature(i, in: chunk) where chunk.candidates[j].owner == q.owner && chunk.has(j, level: rounds) {
            return true
        }
        for n in around {
            let buckets = bucket(n, rounds)
            for box in q.boxes {
                var clash = false
                buckets.forEach(touching: box) { item in
                    let p = n.candidates[item]
                    guard (!p.ignorePlacement && !q.allowOverlap) || (!q.ignorePlacement && !p.allowOverlap) else {
                        return true
                    }
                    overlapTests += 1
                    clash = p.overlaps(box)
                    return !clash
                }
                if clash { return true }
            }
        }
        return false
    }

    /// The candidates of the chunk with the same priority, layer and feature as candidate `i`
    /// (its owner's other positions, and a marker of the same feature): they sit together in
    /// placement order.
    private func sameFeature(_ i: Int, in chunk: Chunk) -> Range<Int> {
        let c = chunk.candidates
        func same(_ j: Int) -> Bool {
            c[j].priority == c[i].priority && c[j].owner.layer == c[i].owner.layer
                && c[j].owner.feature == c[i].owner.feature
        }
        var lower = i
        while lower > 0, same(lower - 1) { lower -= 1 }
        var upper = i + 1
        while upper < c.count, same(upper) { upper += 1 }
        return lower..<upper
    }

    /// The members of `level`'s set that can block others, bucketed by cell in the phase's
    /// order. (Candidates that ignore placement block only their owner's later positions,
    /// found without buckets; but the first phase's result keeps them all, since the second
    /// phase may not place anything over one that does not allow overlap.) Cells are about a
    /// typical box's smaller side: a box covers most of the cells it touches, so an earlier
    /// member listed there most likely overlaps it, and a box touches few cells.
    private func buckets(_ chunk: Chunk, level: Int, area: Rect) -> BoxBuckets {
        var sides: [Double] = []
        for c in chunk.candidates.prefix(1024) {
            for b in c.boxes { sides.append(min(b.width, b.height)) }
        }
        sides.sort()
        let typical = sides.isEmpty ? chunkSize : sides[sides.count / 2]
        let order = level <= rounds ? Array(chunk.candidates.indices) : chunk.fallbackOrder.map { Int($0) }
        let members = order.filter {
            chunk.has($0, level: level) && (level == rounds || !chunk.candidates[$0].ignorePlacement)
        }
        return BoxBuckets(
            area: area.expanded(by: reach), cellSize: max(cellFactor * typical, 4), items: members,
            boxes: { chunk.candidates[$0].boxes })
    }
}
