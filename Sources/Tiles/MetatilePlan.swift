/// The metatiles of a job (or of one shard of it), produced lazily in a fixed order: zoom by
/// zoom, metatile rows from the north, columns from the west.
///
/// Sharding cuts that order into N consecutive runs of about equal *expected work*. A
/// metatile's work is its tile count (cutting, hashing and encoding are per tile) plus a
/// fixed `metatileOverhead` (one render: query, labels, the image conversion). With the
/// cumulative work `s` before a metatile of work `w` and the job's total `W`, the metatile
/// belongs to shard floor((s + w/2) * N / W): its midpoint decides. That is monotonic in the
/// order, so every shard is one run, the shards are disjoint, and together they are the job.
/// Sums per zoom and per metatile row have closed forms, so a shard skips what lies before it
/// without visiting it.
public struct MetatilePlan: Sequence, Sendable {
    public let pyramid: TilePyramid
    public let size: Int
    public let shard: Shard?

    /// The work of one metatile render beyond its tiles, in tiles.
    public static let metatileOverhead = 2
    /// The largest metatile: 64 x 64 tiles of 256 px is a 16384 px image.
    public static let maxSize = 64

    /// Total expected work of the whole job (all shards).
    public let totalWork: Int

    public init(pyramid: TilePyramid, size: Int, shard: Shard? = nil) throws(TilesError) {
        guard size >= 1, size <= MetatilePlan.maxSize else {
            throw .metatileSizeOutOfRange(size, max: MetatilePlan.maxSize)
        }
        self.pyramid = pyramid
        self.size = size
        self.shard = shard
        totalWork = pyramid.ranges.reduce(0) { $0 + Grid(range: $1, size: size).work }
    }

    /// The metatile grid over one zoom's range.
    struct Grid {
        let range: TileRange
        let size: Int
        var firstColumn: Int { range.minX / size }
        var lastColumn: Int { range.maxX / size }
        var firstRow: Int { range.minY / size }
        var lastRow: Int { range.maxY / size }
        var metatileColumns: Int { lastColumn - firstColumn + 1 }

        /// Tiles of grid column `mx` inside the range (x from, count).
        func columnSpan(_ mx: Int) -> (from: Int, count: Int) {
            let from = Swift.max(range.minX, mx * size)
            let to = Swift.min(range.maxX, mx * size + size - 1)
            return (from, to - from + 1)
        }
        func rowSpan(_ my: Int) -> (from: Int, count: Int) {
            let from = Swift.max(range.minY, my * size)
            let to = Swift.min(range.maxY, my * size + size - 1)
            return (from, to - from + 1)
        }
        func rowWork(_ my: Int) -> Int {
            rowSpan(my).count * range.columns + MetatilePlan.metatileOverhead * metatileColumns
        }
        var work: Int {
            range.count + MetatilePlan.metatileOverhead * metatileColumns * (lastRow - firstRow + 1)
        }
        func metatile(_ mx: Int, _ my: Int) -> Metatile {
            let c = columnSpan(mx)
            let r = rowSpan(my)
            return Metatile(z: range.z, x: c.from, y: r.from, columns: c.count, rows: r.count)
        }
        func work(_ mx: Int, _ my: Int) -> Int {
            columnSpan(mx).count * rowSpan(my).count + MetatilePlan.metatileOverhead
        }
    }

    /// The shard of a metatile that starts after `start` work and has `work` work.
    func shardIndex(start: Int, work: Int) -> Int {
        guard let shard, totalWork > 0 else { return 0 }
        return Swift.min(shard.count - 1, ((2 * start + work) * shard.count) / (2 * totalWork))
    }

    /// The number of tiles this plan (this shard) holds, found by walking metatile rows.
    public var tileCount: Int {
        var count = 0
        for metatile in self { count += metatile.tileCount }
        return count
    }

    public func makeIterator() -> Iterator { Iterator(plan: self) }

    public struct Iterator: IteratorProtocol {
        let plan: MetatilePlan
        private var zoomIndex = 0
        private var row: Int?
        private var column: Int?
        /// Work of everything before the current position.
        private var done = 0
        private var finished = false

        init(plan: MetatilePlan) { self.plan = plan }

        public mutating func next() -> Metatile? {
            let target = plan.shard?.index ?? 0
            while !finished, zoomIndex < plan.pyramid.ranges.count {
                let grid = Grid(range: plan.pyramid.ranges[zoomIndex], size: plan.size)
                if row == nil {
                    // Skip a whole zoom whose last metatile lies before this shard.
                    let lastWork = grid.work(grid.lastColumn, grid.lastRow)
                    if plan.shardIndex(start: done + grid.work - lastWork, work: lastWork) < target {
                        done += grid.work
                        zoomIndex += 1
                        continue
                    }
                    row = grid.firstRow
                }
                var my = row!
                if column == nil {
                    // Skip metatile rows before this shard.
                    while my <= grid.lastRow {
                        let lastWork = grid.work(grid.lastColumn, my)
                        if plan.shardIndex(start: done + grid.rowWork(my) - lastWork, work: lastWork) >= target {
                            break
                        }
                        done += grid.rowWork(my)
                        my += 1
                    }
                    if my > grid.lastRow {
                        row = nil
                        zoomIndex += 1
                        continue
                    }
                    row = my
                    column = grid.firstColumn
                }
                let mx = column!
                let work = grid.work(mx, my)
                let shard = plan.shardIndex(start: done, work: work)
                done += work
                if mx < grid.lastColumn {
                    column = mx + 1
                } else {
                    column = nil
                    if my < grid.lastRow {
                        row = my + 1
                    } else {
                        row = nil
                        zoomIndex += 1
                    }
                }
                if shard == target { return grid.metatile(mx, my) }
                if shard > target { finished = true }
            }
            return nil
        }
    }
}
