import Geodesy
import MapModel

/// The placements read from the layers and not yet handed to the placement engine, by the
/// block of global pixels and the engine's chunk that hold their anchors.
///
/// A block (a square of at least `LabelSpace.blockSize` pixels of one layer) is read from the
/// source at once: its features one by one, their placements made and kept by chunk. The
/// engine asks for one chunk at a time and caches what it gets, so a chunk's placements are
/// handed over, not copied: each placement is held here or in the engine, never in both. A
/// whole-world view at a low zoom reads every place in one block; once its chunks are loaded,
/// nothing of it is left here.
///
/// A feature is found in every block it crosses but made once while it is kept here: the
/// placements of a feature reaching beyond its block are kept whole, by feature, for the
/// other blocks that find it (each keeps those anchored in it).
final class WaitingPlacements {
    struct BlockKey: Hashable {
        let layer: Int
        let column: Int
        let row: Int
    }

    struct ChunkKey: Hashable {
        let x: Int
        let y: Int
    }

    private struct FeatureKey: Hashable {
        let layer: Int
        let feature: Int
    }

    private struct Block {
        /// Placements anchored in the block and not handed out, by chunk.
        var waiting: [ChunkKey: PlacementPages] = [:]
        /// Chunks handed out since it was read: asked again (the engine dropped them), the
        /// block is read afresh.
        var handedOut: Set<ChunkKey> = []
        var lastUse: Int
        var bytes = WaitingPlacements.blockBytes

        init(lastUse: Int) { self.lastUse = lastUse }

        var count: Int { waiting.values.reduce(0) { $0 + $1.count } }
    }

    /// Reads a block: calls `found` with each feature the source finds in `area` (Web
    /// Mercator metres), its bounds (the same units) and a closure that makes its placements.
    typealias Reader = (
        _ layer: Int, _ area: Rect, _ found: (Int, Rect, () -> [PlacementCandidate]) -> Void
    ) throws -> Void

    let blockSide: Double
    let chunkSide: Double
    /// Past this many estimated bytes, the least recently used blocks go (read again when
    /// asked for, with the same placements).
    let budget: Int
    /// Reads a block: the asking worker's (see `PlacementShare`).
    var read: Reader
    /// A block's area in Web Mercator metres from its pixels.
    private let mercator: (Rect) -> Rect
    private var blocks: [BlockKey: Block] = [:]
    /// The placements of the features reaching beyond the block that read them.
    private var crossing: [FeatureKey: [PlacementCandidate]] = [:]
    /// Estimated heap bytes held.
    private(set) var bytes = 0
    /// Placements held.
    private(set) var waitingCount = 0
    /// Counts the questions asked (see `Block.lastUse`).
    private var question = 0

    /// A block's entry, its sets and dictionary slots.
    static let blockBytes = 512
    /// An entry of a set of chunks or features.
    static let setEntryBytes = 24

    init(blockSide: Double, chunkSide: Double, budget: Int, mercator: @escaping (Rect) -> Rect, read: @escaping Reader)
    {
        self.blockSide = blockSide
        self.chunkSide = chunkSide
        self.budget = budget
        self.mercator = mercator
        self.read = read
    }

    /// Drops everything; what is asked for next is read again.
    func removeAll() {
        blocks = [:]
        crossing = [:]
        bytes = 0
        waitingCount = 0
    }

    /// Blocks held.
    var blockCount: Int { blocks.count }

    /// The largest page capacity of a list waiting since this was made: the most placements
    /// one append copied (see `PlacementPages`).
    private(set) var peakPageCapacity = 0

    /// The cell of side `side` holding `v`, the way a half-open area [k × side, (k + 1) ×
    /// side) holds it (`floor(v / side)` can round to the next cell just below its edge).
    static func cell(_ v: Double, side: Double) -> Int {
        let down = (v / side).rounded(.down)
        guard !down.isNaN else { return 0 }
        var k = Int(min(max(down, -1e15), 1e15))
        if v < Double(k) * side { k -= 1 } else if v >= Double(k + 1) * side { k += 1 }
        return k
    }

    /// The cells of side `side` that share area with [lower, upper).
    private static func cells(_ lower: Double, _ upper: Double, side: Double) -> ClosedRange<Int> {
        let first = cell(lower, side: side)
        var last = cell(upper, side: side)
        if last > first, Double(last) * side >= upper { last -= 1 }
        return first...max(first, last)
    }

    /// The placements of layer `layer` anchored in `rect`, at least in the half-open
    /// [minX, maxX) x [minY, maxY) (more where a chunk is only partly inside). The chunks
    /// wholly inside `rect` are handed out: the next question about one reads its block again.
    func take(layer: Int, anchoredIn rect: Rect) throws -> PlacementPages {
        question += 1
        let columns = Self.cells(rect.minX, rect.maxX, side: blockSide)
        let rows = Self.cells(rect.minY, rect.maxY, side: blockSide)
        let chunkColumns = Self.cells(rect.minX, rect.maxX, side: chunkSide)
        let chunkRows = Self.cells(rect.minY, rect.maxY, side: chunkSide)
        var found = PlacementPages()
        for row in rows {
            for column in columns {
                let key = BlockKey(layer: layer, column: column, row: row)
                let asked = chunks(of: key, chunkColumns, chunkRows)
                if let known = blocks[key], known.handedOut.isDisjoint(with: asked) {
                    blocks[key]?.lastUse = question
                } else {
                    try readBlock(key)
                }
                for chunk in asked {
                    guard let list = blocks[key]?.waiting[chunk] else { continue }
                    let whole =
                        Double(chunk.x) * chunkSide >= rect.minX && Double(chunk.x + 1) * chunkSide <= rect.maxX
                        && Double(chunk.y) * chunkSide >= rect.minY && Double(chunk.y + 1) * chunkSide <= rect.maxY
                    guard whole else {
                        found.append(list.filter { rect.contains(x: $0.anchor.x, y: $0.anchor.y) })
                        continue
                    }
                    blocks[key]?.waiting[chunk] = nil
                    blocks[key]?.handedOut.insert(chunk)
                    let freed = Self.bytes(of: list) - Self.setEntryBytes
                    blocks[key]?.bytes -= freed
                    bytes -= freed
                    waitingCount -= list.count
                    // Handed over page by page, without a copy.
                    found.append(list)
                }
            }
        }
        if bytes > budget { dropBlocks() }
        return found
    }

    /// The chunks of `chunkColumns` x `chunkRows` that lie in block `key`.
    private func chunks(of key: BlockKey, _ chunkColumns: ClosedRange<Int>, _ chunkRows: ClosedRange<Int>)
        -> Set<ChunkKey>
    {
        let side = blockSide
        let inColumns = chunkColumns.clamped(
            to: Self.cells(Double(key.column) * side, Double(key.column + 1) * side, side: chunkSide))
        let inRows = chunkRows.clamped(
            to: Self.cells(Double(key.row) * side, Double(key.row + 1) * side, side: chunkSide))
        var keys = Set<ChunkKey>()
        for y in inRows {
            for x in inColumns { keys.insert(ChunkKey(x: x, y: y)) }
        }
        return keys
    }

    /// Reads block `key` from the source (afresh if it was read), keeping its features'
    /// placements anchored in it by chunk.
    private func readBlock(_ key: BlockKey) throws {
        if let known = blocks[key] {
            bytes -= known.bytes
            waitingCount -= known.count
        }
        var block = Block(lastUse: question)
        // A feature within a pixel of the edge may be found by the next block too.
        let inner = mercator(pixels(key).expanded(by: -1))
        try read(key.layer, area(key)) { feature, bounds, make in
            let featureKey = FeatureKey(layer: key.layer, feature: feature)
            let placements: [PlacementCandidate]
            if let known = crossing[featureKey] {
                placements = known
            } else {
                placements = make()
                if !inner.contains(bounds) {
                    crossing[featureKey] = placements
                    bytes += Self.bytes(of: placements)
                }
            }
            for p in placements where self.block(layer: key.layer, holding: p.anchor) == key { add(p, to: &block) }
        }
        blocks[key] = block
        bytes += block.bytes
        waitingCount += block.count
    }

    /// The block of layer `layer` holding `anchor` (global pixels).
    func block(layer: Int, holding anchor: PlanePoint) -> BlockKey {
        BlockKey(layer: layer, column: Self.cell(anchor.x, side: blockSide), row: Self.cell(anchor.y, side: blockSide))
    }

    /// A block's area in Web Mercator metres, with a pixel more, so that an anchor on its
    /// edge is found whatever the rounding.
    func area(_ key: BlockKey) -> Rect {
        mercator(pixels(key).expanded(by: 1))
    }

    /// A block's area in global pixels.
    private func pixels(_ key: BlockKey) -> Rect {
        Rect(
            minX: Double(key.column) * blockSide, minY: Double(key.row) * blockSide,
            maxX: Double(key.column + 1) * blockSide, maxY: Double(key.row + 1) * blockSide)
    }

    private func add(_ p: PlacementCandidate, to block: inout Block) {
        let chunk = ChunkKey(x: Self.cell(p.anchor.x, side: chunkSide), y: Self.cell(p.anchor.y, side: chunkSide))
        let before = block.waiting[chunk]?.count ?? 0
        block.waiting[chunk, default: PlacementPages()].append(p)
        peakPageCapacity = max(peakPageCapacity, block.waiting[chunk]?.lastPageCapacity ?? 0)
        // The list's header once, then each placement.
        block.bytes +=
            (before == 0 ? MemoryCost.allocation + Self.setEntryBytes : 0) + MemoryLayout<PlacementCandidate>.stride
            + p.heapBytes
    }

    /// Estimated heap bytes of a chunk's list (an array or pages) and its slot.
    private static func bytes(of list: some Collection<PlacementCandidate>) -> Int {
        MemoryCost.array(list.count, of: PlacementCandidate.self) + list.reduce(0) { $0 + $1.heapBytes }
            + setEntryBytes
    }

    /// Drops the crossing features' placements, then the least recently used blocks not used
    /// by the current question, until the bytes are within the budget.
    private func dropBlocks() {
        bytes -= crossing.values.reduce(0) { $0 + Self.bytes(of: $1) }
        crossing = [:]
        for (key, block) in blocks.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard bytes > budget, block.lastUse < question else { return }
            blocks[key] = nil
            bytes -= block.bytes
            waitingCount -= block.count
        }
    }
}
