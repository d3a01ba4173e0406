import CCairo
import CPrefetch
import Geodesy
import MapModel

/// Fills grid line outlines straight into the pixels of an ARGB32 image, anti-aliased by
/// exact area coverage, blended in the grid's coverage levels (`GridCoverageLevels`).
///
/// Why not Cairo: a grid is a few dozen long thin lines, and Cairo's scan converter and span
/// renderer spend some 600 instructions per line per pixel row (measured with callgrind on
/// Cairo 1.16), which made the lines alone cost more than the whole map under them. Here a
/// row of a grid line down a tile costs about 120 instructions, its two sides and the pixels
/// between them (see `fill`).
///
/// Why the bytes do not depend on the block a tile is drawn in: vertices are rounded to a
/// fixed grid of 1/256 pixel in global coordinates, every cell's share of an edge is computed
/// from the edge and the cell alone, and shares are summed as integers (exact in any order),
/// so a pixel's coverage is the same whatever else is drawn and wherever the drawing is clipped.
final class GridLineRaster {
    /// The pixels of an image surface, and how its pixels sit on the raster's cells.
    struct Target {
        let surface: OpaquePointer
        let data: UnsafeMutablePointer<UInt32>
        let stride: Int
        let width: Int
        let height: Int
        /// Raster cell (i, j) is image pixel (i - cellX, j - cellY); raster coordinates are
        /// global pixels minus (shiftX, shiftY), the fractional part of the view's origin
        /// (zero for tiles, whose origins are whole pixels).
        let cellX: Int
        let cellY: Int
        let shiftX: Double
        let shiftY: Double

        /// The target of a context that draws straight onto an image surface in the view's
        /// pixels (no transformation); nil otherwise (PDF, SVG, a map placed on a page).
        init?(_ context: CairoContext, view: View) {
            let cr = context.pointer
            guard let surface = cairo_get_target(cr), cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
                cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
            else { return nil }
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            guard m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0, m.x0 == 0, m.y0 == 0 else { return nil }
            cairo_surface_flush(surface)
            guard let raw = cairo_image_surface_get_data(surface) else { return nil }
            self.surface = surface
            data = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: UInt32.self)
            stride = Int(cairo_image_surface_get_stride(surface)) / 4
            width = Int(cairo_image_surface_get_width(surface))
            height = Int(cairo_image_surface_get_height(surface))
            let ox = view.originX.rounded(.down)
            let oy = view.originY.rounded(.down)
            cellX = Int(ox)
            cellY = Int(oy)
            shiftX = view.originX - ox
            shiftY = view.originY - oy
        }

        /// Tells Cairo which pixels changed behind its back.
        func markDirty(_ x: Int, _ y: Int, _ w: Int, _ h: Int) {
            cairo_surface_mark_dirty_rectangle(surface, Int32(x), Int32(y), Int32(w), Int32(h))
        }

        /// Asks for the cache lines of the image's pixels within `rect` (global pixels), to
        /// be written soon: what a label's sprite will be blended over (`GridDrawing`).
        func prefetchForWrite(_ rect: Rect) {
            guard !rect.isEmpty, rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite
            else { return }
            let x0 = Swift.max(Int((rect.minX - shiftX).rounded(.down)) &- cellX, 0)
            let x1 = Swift.min(Int((rect.maxX - shiftX).rounded(.up)) &- cellX, width)
            let y0 = Swift.max(Int((rect.minY - shiftY).rounded(.down)) &- cellY, 0)
            let y1 = Swift.min(Int((rect.maxY - shiftY).rounded(.up)) &- cellY, height)
            guard x0 < x1, y0 < y1 else { return }
            var y = y0
            while y < y1 {
                meridian_prefetch_span(data, (y &* stride &+ x0) &* 4, (x1 &- x0) &* 4, 1)
                y &+= 1
            }
        }
    }

    /// How many rows ahead of the row being drawn its edges' pixels are asked for
    /// (`meridian_prefetch_for_write`).
    ///
    /// Why: a line down a metatile blends a pixel or three a row, every row in its own cache
    /// line (the rows of an 8 x 8 metatile are 8 KB apart) and, by the time the grid is drawn
    /// over a tile, rarely still in the cache; each row waited on its pixels' load (a cpu-clock
    /// profile of the New York MGRS pyramid put two thirds of the strips' samples on it). A row
    /// costs some 120 instructions, so 16 rows ahead covers the memory's latency. The hint
    /// changes nothing drawn.
    static let prefetchRows = 16

    /// Sub-pixel units per pixel (as Cairo's 24.8 fixed point), and the coverage of a whole pixel.
    private static let unit = 256.0
    private static let full: Int64 = 65_536

    /// The coverage level (`GridCoverageLevels`) of each coverage byte 0...255 (a coverage
    /// 0...`full` rounded to 8 bits, `coverageByte`). Looked up, not worked out, because a
    /// line's every pixel row blends three or four pixels. Indexed by the byte, not by the
    /// coverage: a table of every coverage (65 KB) did not stay in the first-level cache, and
    /// its loads were among the raster's slowest (a cpu-clock profile of the New York MGRS
    /// pyramid). Never freed (256 bytes, one for all); written once, before any reader can see
    /// it, and only read after.
    nonisolated(unsafe) static let coverageLevels: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0..<256 { table[byte] = UInt8(GridCoverageLevels.level(UInt32(byte))) }
        return UnsafePointer(table)
    }()

    /// Makes `buffer` (room for `capacity` elements) hold at least `count`, by at least doubling
    /// it, so a raster kept over a metatile's many fills rarely reallocates; what it held is
    /// not kept. True when it was reallocated.
    @discardableResult
    private static func grow<T>(_ buffer: inout UnsafeMutablePointer<T>, _ capacity: inout Int, toHold count: Int)
        -> Bool
    {
        guard capacity < count else { return false }
        buffer.deallocate()
        capacity = Swift.max(count, 2 * capacity)
        buffer = .allocate(capacity: capacity)
        return true
    }

    /// A coverage 0...`full` rounded to 8 bits (0...255).
    @inline(__always)
    static func coverageByte(_ coverage: Int64) -> Int {
        // `coverage` is at most `full` (2^16): no overflow.
        Int(truncatingIfNeeded: (coverage &* 255 &+ 32_768) &>> 16)
    }

    /// One edge of the current fill's outline, on the fixed grid, from its top end `a` to its
    /// bottom end `b`, with where it left the last row walked.
    struct Edge {
        let ax: Double
        let ay: Int64
        let bx: Double
        let by: Int64
        let slope: Double
        /// +1 for an edge that runs down the outline, -1 for one that runs up.
        let sign: Int64
        /// The first and last rows of the fill the edge crosses.
        let rowA: Int
        let rowB: Int
        /// The edge's x at the top of the next row, and its cell.
        var xTop: Double
        var cellTop: Int
    }

    // The working state below is marked `@exclusivity(unchecked)`: a raster belongs to one
    // worker's `GridRenderer` and is used by one thread at a time, and no method hands one of
    // these properties out while it works on another. Checked, every fill began and ended
    // some eight dynamic accesses (`grow`'s inout buffers, the counters, the colour), and the
    // painter one for the outline's scratch: about 4 M instructions in the New York MGRS
    // pyramid (callgrind), for nothing a test can catch.

    /// The current fill's edges in the rows it draws, by first row, and those crossing the
    /// row being drawn.
    @exclusivity(unchecked) private var edges = UnsafeMutablePointer<Edge>.allocate(capacity: 0)
    @exclusivity(unchecked) private var active = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    @exclusivity(unchecked) private var edgeCapacity = 0
    /// The outline's working arrays, kept from one run to the next (`GridLinePainter.draw`).
    @exclusivity(unchecked) var outlineScratch = GridLineOutline.Scratch()
    /// A solid family's stretches and which are drawn (`GridLinePainter.outlines`), kept too.
    @exclusivity(unchecked) var stretches: [GridLinePainter.Stretch] = []
    @exclusivity(unchecked) var stretchUsed: [Bool] = []

    /// A vertex on the fixed grid (1/256 pixel).
    struct FixedPoint {
        let x: Int64
        let y: Int64
    }

    /// The current fill's rings on the fixed grid, one after another, and where each ends.
    @exclusivity(unchecked) private var fixed = UnsafeMutablePointer<FixedPoint>.allocate(capacity: 0)
    @exclusivity(unchecked) private var fixedCapacity = 0
    @exclusivity(unchecked) private var ringEnds = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    @exclusivity(unchecked) private var ringCapacity = 0
    /// Accumulated coverage deltas over the cells of the row being drawn, when it is not part
    /// of a strip of two edges (see `fill`); back at zero after every row.
    @exclusivity(unchecked) private var cells = UnsafeMutablePointer<Int64>.allocate(capacity: 0)
    @exclusivity(unchecked) private var cellCapacity = 0
    /// The current fill's colour at each coverage level (`Premultiplied.Levels`).
    private let levelTable = UnsafeMutablePointer<UInt32>.allocate(capacity: Premultiplied.Levels.count)
    /// The colour `levelTable` was built for (nil before the first fill).
    @exclusivity(unchecked) private var levelColor: Color?
    /// How many times `levelTable` was built (tests).
    @exclusivity(unchecked) private(set) var levelTablesBuilt = 0

    /// Rows drawn straight from their two edges, and rows summed in `cells`, since the raster
    /// was made: what shows the fast path is taken (tests).
    @exclusivity(unchecked) private(set) var directRows = 0
    @exclusivity(unchecked) private(set) var summedRows = 0
    /// False draws every row through `cells` (tests: the two ways give the same pixels).
    var drawsRowsDirectly = true

    deinit {
        levelTable.deallocate()
        fixed.deallocate()
        ringEnds.deallocate()
        cells.deallocate()
        edges.deallocate()
        active.deallocate()
    }

    /// Rounds half away from zero without a library call: the same as truncating v ± 0.5
    /// (so the same integer as before for every v), for |v| < 2^50.
    @inline(__always)
    static func round(_ v: Double) -> Int64 { v < 0 ? 0 &- floor(0.5 - v) : floor(v + 0.5) }

    /// The largest integer at most `x`, for |x| < 2^51 (vertices are checked below 1e15).
    ///
    /// Why not `Int64(x)`: Swift checks every such conversion for range and NaN, about as
    /// many instructions again as the conversion and the rest of a cell's arithmetic; a
    /// fill makes two to four per pixel row of a line. Adding 1.5 * 2^52 leaves x rounded to
    /// the nearest integer in the low bits of the sum (the sum stays within [2^52, 2^53), whose
    /// doubles are the integers), and one step down when that is above x.
    @inline(__always)
    static func floor(_ x: Double) -> Int64 {
        let magic = 6_755_399_441_055_744.0  // 1.5 * 2^52
        var i = Int64(bitPattern: (x + magic).bitPattern) &- Int64(bitPattern: magic.bitPattern)
        if Double(i) > x { i &-= 1 }
        return i
    }

    /// The largest integer at most `x`, for 0 <= x < 2^63: its integer part, one instruction
    /// (`meridian_truncate`), where `floor` takes some eight. The strips' shares and a shallow
    /// edge's whole cells round values known to lie within 0.5...65,537 (see there).
    @inline(__always)
    static func floorOfPositive(_ x: Double) -> Int64 { meridian_truncate(x) }

    /// The cell holding fixed-point x.
    @inline(__always)
    private static func cell(_ x: Double) -> Int { Int(floor(x) >> 8) }

    /// Fills the union of `polygons` (global pixels; overlaps count once) with `color`,
    /// touching only the pixels of `region` (global pixels, in whole raster cells).
    ///
    /// Row by row, each row from the edges that cross it. An edge within one cell of a row
    /// (most rows of a steep edge) gives that cell its share and the next the rest of the
    /// row's height; a row with just two such edges (a steep line's two sides, nearly every
    /// row of a grid line that runs down a tile) takes its coverage straight from them, cell
    /// by cell: the first cell its share, the cells between the whole height, the last the
    /// height less the other's share. Other rows sum their edges' deltas in `cells`. Both
    /// ways add the same integers, so give the same pixels.
    func fill(_ polygons: [[PlanePoint]], color: Color, region: Rect, target t: Target) {
        var points: [PlanePoint] = []
        var ends: [Int] = []
        for polygon in polygons {
            points += polygon
            ends.append(points.count)
        }
        fill(points, ends: ends, color: color, region: region, target: t)
    }

    /// `fill(_:color:region:target:)` of polygons given one after another in `points`, each
    /// ending at the next of `ends` (`GridLineOutline.outline`).
    func fill(_ points: [PlanePoint], ends: [Int], color: Color, region: Rect, target t: Target) {
        // Clip: the region's cells within the image.
        let c0 = Swift.max(Int((region.minX - t.shiftX).rounded(.down)), t.cellX)
        let c1 = Swift.min(Int((region.maxX - t.shiftX).rounded(.up)), t.cellX + t.width)
        let r0 = Swift.max(Int((region.minY - t.shiftY).rounded(.down)), t.cellY)
        let r1 = Swift.min(Int((region.maxY - t.shiftY).rounded(.up)), t.cellY + t.height)
        guard c0 < c1, r0 < r1 else { return }

        // Vertices on the fixed grid, and the rows and columns they reach: the rings one
        // after another in the raster's own buffer (`ringEnds` where each stops). Arrays of
        // rings were three allocations and releases a fill, and a metatile makes thousands.
        var vertices = 0
        var ringCount = 0
        var start = 0
        for end in ends {
            if end - start >= 3 {
                vertices &+= end - start
                ringCount &+= 1
            }
            start = end
        }
        guard ringCount > 0 else { return }
        GridLineRaster.grow(&fixed, &fixedCapacity, toHold: vertices)
        GridLineRaster.grow(&ringEnds, &ringCapacity, toHold: ringCount)
        let fixed = fixed
        let ringEnds = ringEnds
        var minX = Int64.max
        var maxX = Int64.min
        var minY = Int64.max
        var maxY = Int64.min
        var stored = 0
        var ring = 0
        start = 0
        for end in ends {
            defer { start = end }
            guard end - start >= 3 else { continue }
            for p in points[start..<end] {
                let x = (p.x - t.shiftX) * GridLineRaster.unit
                let y = (p.y - t.shiftY) * GridLineRaster.unit
                guard Swift.abs(x) < 1e15, Swift.abs(y) < 1e15 else { return }
                let q = FixedPoint(x: GridLineRaster.round(x), y: GridLineRaster.round(y))
                fixed[stored] = q
                stored &+= 1
                minX = Swift.min(minX, q.x)
                maxX = Swift.max(maxX, q.x)
                minY = Swift.min(minY, q.y)
                maxY = Swift.max(maxY, q.y)
            }
            ringEnds[ring] = stored
            ring &+= 1
        }
        // Cells left of the region carry their coverage into its first column; cells right of
        // it cannot show.
        let first = Int(minX >> 8)
        let last = Int(maxX >> 8) + 1
        let top = Swift.max(Int(minY >> 8), r0)
        let bottom = Swift.min(Int((maxY - 1) >> 8), r1 - 1)
        guard top <= bottom, last >= c0, first < c1 else { return }
        let left = Swift.max(first, c0)
        let right = Swift.min(last, c1 - 1)
        let width = right - left + 1
        if GridLineRaster.grow(&cells, &cellCapacity, toHold: width) {
            cells.initialize(repeating: 0, count: cellCapacity)
        }
        if GridLineRaster.grow(&edges, &edgeCapacity, toHold: vertices) {
            // One index into `edges` for each edge: the same capacity.
            active.deallocate()
            active = .allocate(capacity: edgeCapacity)
        }
        let edges = edges
        let active = active
        let acc = cells

        // The edges that cross the rows drawn, in order of their first row (inserted in place:
        // a fill holds a few dozen edges at most, mostly in order).
        var edgeCount = 0
        var ringStart = 0
        for r in 0..<ringCount {
            let ringEnd = ringEnds[r]
            defer { ringStart = ringEnd }
            var previous = fixed[ringEnd &- 1]
            var v = ringStart
            while v < ringEnd {
                let point = fixed[v]
                v &+= 1
                defer { previous = point }
                guard previous.y != point.y else { continue }
                let down = point.y > previous.y
                let (a, b) = down ? (previous, point) : (point, previous)
                let rowA = Swift.max(Int(a.y >> 8), top)
                let rowB = Swift.min(Int((b.y - 1) >> 8), bottom)
                guard rowA <= rowB else { continue }
                let slope = Double(b.x - a.x) / Double(b.y - a.y)
                // A row's top x is the row above's bottom x (the same expression: below the
                // edge's first row, yTop is the row's top, which is the row above's yBottom),
                // so it and its cell are carried down, not worked out again.
                let yFirst = Swift.max(a.y, Int64(rowA) << 8)
                let xTop = yFirst == a.y ? Double(a.x) : Double(a.x) + Double(yFirst &- a.y) * slope
                var j = edgeCount
                while j > 0, edges[j &- 1].rowA > rowA {
                    (edges + j).moveInitialize(from: edges + (j &- 1), count: 1)
                    j &-= 1
                }
                (edges + j).initialize(
                    to: Edge(
                        ax: Double(a.x), ay: a.y, bx: Double(b.x), by: b.y, slope: slope, sign: down ? 1 : -1,
                        rowA: rowA, rowB: rowB, xTop: xTop, cellTop: GridLineRaster.cell(xTop)))
                edgeCount &+= 1
            }
        }
        guard edgeCount > 0 else { return }

        // A family's fills come one after another in one colour: its table is built once.
        // (Its remembered blends carry over: each is a function of its pixel and level alone.)
        if levelColor != color {
            _ = Premultiplied.Levels(Premultiplied(color), in: levelTable)
            levelColor = color
            levelTablesBuilt &+= 1
        }
        let colour = Premultiplied.Levels(built: levelTable)
        let levelOf = GridLineRaster.coverageLevels
        /// Blends the colour into pixel `c` of `line` at the coverage of running sum `sum`.
        @inline(__always) func blend(_ line: UnsafeMutablePointer<UInt32>, _ c: Int, _ sum: Int64) {
            guard sum != 0 else { return }
            GridLineRaster.blend(colour, levels: levelOf, into: line + c, sum: sum)
        }
        /// Blends the colour into pixel `c` of `line` at `coverage` (0...`full`).
        @inline(__always) func cover(_ line: UnsafeMutablePointer<UInt32>, _ c: Int, _ coverage: Int64) {
            guard coverage != 0 else { return }
            colour.blend(into: line + c, level: Int(levelOf[GridLineRaster.coverageByte(coverage)]))
        }
        /// Draws rows `row..<limit` of two edges `p` and `q` (p's cell not after q's), both
        /// crossing each row whole, in cells within the region, up to the first row where
        /// either edge leaves its cell; returns that row (`limit` when none does).
        ///
        /// The same sums as the other rows, worked out for the case: each edge's share of its
        /// cell (`h` is ±256: the share is the edge's sign times the rounded part of 256 *
        /// (256 - mid), which is at least 0), p's cell p's share, the cells between p's whole
        /// height, q's cell that and q's share, and nothing beyond.
        ///
        /// The coverages are taken from the shares' magnitudes, without the signs: p and q run
        /// opposite ways (the caller checks), so the sums are ±mp in p's cell, ±65,536 between,
        /// ±(65,536 - mq) in q's cell and ±(mp - mq) when both share one cell, whose absolute
        /// values (all within 0...65,536, so the clamp to `full` never bites) are what `blend`
        /// made of the signed sums. The cells between take one level, looked up once.
        @inline(never) func strip(
            _ p: UnsafeMutablePointer<Edge>, _ q: UnsafeMutablePointer<Edge>, rows first: Int, _ limit: Int
        ) -> Int {
            var ps = StripSide(p.pointee, row: first)
            var qs = StripSide(q.pointee, row: first)
            let cp = ps.cell &- left
            let cq = qs.cell &- left
            let fullLevel = Int(levelOf[GridLineRaster.coverageByte(GridLineRaster.full)])
            var line = t.data + (first &- t.cellY) &* t.stride + (left &- t.cellX)
            let aheadP = (GridLineRaster.prefetchRows &* t.stride &+ cp) &* 4
            let aheadQ = (GridLineRaster.prefetchRows &* t.stride &+ cq) &* 4
            var row = first
            while row < limit {
                meridian_prefetch_for_write(line, aheadP)
                meridian_prefetch_for_write(line, aheadQ)
                let pxBottom = ps.ax + ps.dy * ps.slope
                let qxBottom = qs.ax + qs.dy * qs.slope
                guard pxBottom >= ps.cellLeft, pxBottom < ps.cellRight, qxBottom >= qs.cellLeft,
                    qxBottom < qs.cellRight
                else { break }
                let mp = ps.magnitude(to: pxBottom)
                let mq = qs.magnitude(to: qxBottom)
                if cp == cq {
                    cover(line, cp, Swift.abs(mp &- mq))
                } else {
                    cover(line, cp, mp)
                    var c = cp &+ 1
                    while c < cq {
                        colour.blend(into: line + c, level: fullLevel)
                        c &+= 1
                    }
                    cover(line, cq, GridLineRaster.full &- mq)
                }
                line += t.stride
                row &+= 1
            }
            p.pointee.xTop = ps.xTop
            q.pointee.xTop = qs.xTop
            return row
        }
        // The first rows' pixels near the edges that start in them (later rows are asked for
        // as the rows above them are drawn).
        do {
            let end = edges[0].rowA &+ GridLineRaster.prefetchRows
            var e = 0
            while e < edgeCount, edges[e].rowA < end {
                let column = (edges[e].cellTop &- t.cellX) &* 4
                var r = edges[e].rowA
                while r < end, r <= edges[e].rowB {
                    meridian_prefetch_for_write(t.data, (r &- t.cellY) &* t.stride &* 4 &+ column)
                    r &+= 1
                }
                e &+= 1
            }
        }
        let direct = drawsRowsDirectly
        var directRows = 0
        var summedRows = 0
        var next = 0
        var activeCount = 0
        var row = edges[0].rowA
        // A while loop: a range's iterator checks every step for overflow.
        while row <= bottom {
            while next < edgeCount, edges[next].rowA == row {
                active[activeCount] = next
                activeCount &+= 1
                next &+= 1
            }
            guard activeCount > 0 else {
                guard next < edgeCount else { break }
                row = edges[next].rowA
                continue
            }
            if direct, activeCount == 2 {
                // A line's two sides, up to the next row where an edge starts or ends.
                let ea = edges + active[0]
                let eb = edges + active[1]
                var limit = Swift.min(ea.pointee.rowB, eb.pointee.rowB)
                if next < edgeCount { limit = Swift.min(limit, edges[next].rowA) }
                let ka = ea.pointee.cellTop &- left
                let kb = eb.pointee.cellTop &- left
                if row > Swift.max(ea.pointee.rowA, eb.pointee.rowA), row < limit, ea.pointee.sign != eb.pointee.sign,
                    ka >= 0, ka < width &- 1, kb >= 0, kb < width &- 1
                {
                    let end = strip(ka <= kb ? ea : eb, ka <= kb ? eb : ea, rows: row, limit)
                    directRows &+= end &- row
                    if end > row {
                        row = end
                        continue
                    }
                }
            }

            // Any other row: each edge's deltas summed in `acc`, over the cells touched.
            summedRows &+= 1
            var touchedFirst = Int.max
            var touchedLast = Int.min
            /// Adds `value` to cell `column`, columns clamped to the region.
            @inline(__always) func add(_ column: Int, _ value: Int64) {
                guard column <= right else { return }
                let c = Swift.max(column, left) &- left
                acc[c] &+= value
                if c < touchedFirst { touchedFirst = c }
                if c > touchedLast { touchedLast = c }
            }
            let rowTop = Int64(row) << 8
            let rowBottom = Int64(row &+ 1) << 8
            // The pixels of the row `prefetchRows` below, where the edges are now.
            let ahead = (row &+ GridLineRaster.prefetchRows &- t.cellY) &* t.stride &- t.cellX
            var i = 0
            while i < activeCount {
                meridian_prefetch_for_write(t.data, (ahead &+ edges[active[i]].cellTop) &* 4)
                i &+= 1
            }
            i = 0
            while i < activeCount {
                let e = edges + active[i]
                let yTop = Swift.max(e.pointee.ay, rowTop)
                let yBottom = Swift.min(e.pointee.by, rowBottom)
                let xBottom =
                    yBottom == e.pointee.by
                    ? e.pointee.bx : e.pointee.ax + Double(yBottom &- e.pointee.ay) * e.pointee.slope
                let cellBottom = GridLineRaster.cell(xBottom)
                let xTop = e.pointee.xTop
                let cellTop = e.pointee.cellTop
                e.pointee.xTop = xBottom
                e.pointee.cellTop = cellBottom
                let h = e.pointee.sign &* (yBottom &- yTop)
                let total = h << 8
                if e.pointee.rowB == row {
                    activeCount &-= 1
                    active[i] = active[activeCount]
                } else {
                    i &+= 1
                }
                // Both ends in one cell (most rows of a steep edge): the ends' order and the
                // cells' bounds are not needed.
                var k = cellTop
                if cellTop != cellBottom {
                    let xl = Swift.min(xTop, xBottom)
                    let xr = Swift.max(xTop, xBottom)
                    // `cell` never decreases with x: the cells of the smaller and larger x
                    // (different here); an end on the larger one's left side is in the cell
                    // before it.
                    let kl = Swift.min(cellTop, cellBottom)
                    var kr = Swift.max(cellTop, cellBottom)
                    if Double(kr << 8) == xr { kr -= 1 }
                    if kl != kr {
                        // Across cells: each cell gets the edge's height within it, in
                        // proportion to its width there, split as below between the cell and
                        // the next. The shares are rounded as running totals, so that they add
                        // up to the row's exact total; each total is worked out from the edge
                        // and the cell alone (the edge's height left of the cell, whole, and
                        // the cell's own part), so the cells left of the region (whose shares
                        // all land in its first column) and right of it (which cannot show)
                        // are skipped: a long shallow edge crosses many tiles, and each tile
                        // walks only its own cells.
                        let perUnit = Double(h) / (xr - xl)
                        let kFirst = Swift.max(kl, left)
                        let kLast = Swift.min(kr, right)
                        var given: Int64 = 0
                        if kFirst <= kLast {
                            @inline(__always) func running(_ k: Int) -> Int64 {
                                let cellLeft = Double(k << 8)
                                let from = Swift.max(xl, cellLeft)
                                let to = Swift.min(xr, cellLeft + GridLineRaster.unit)
                                let part = (to - from) * perUnit
                                let mid = (from + to) / 2 - cellLeft
                                return GridLineRaster.round(
                                    (from - xl) * perUnit * GridLineRaster.unit + part * (GridLineRaster.unit - mid))
                            }
                            // Cells kFirst...kLast lie in the region: added to directly, the
                            // row's touched span widened once. The cells strictly between the
                            // edge's ends are whole (from = cellLeft, to = cellLeft + 256 and
                            // mid = 128, all exact), so their running total is the same
                            // expression with the constant part worked out once.
                            var k = kFirst
                            if k == kl {
                                given = running(k)
                                acc[k &- left] &+= given
                                k &+= 1
                            }
                            // Worked out for |h| (negating h negates every step exactly, and
                            // `round` is symmetric), so the running total is at least 0 and
                            // rounds without a branch on its sign.
                            let sign: Int64 = h < 0 ? -1 : 1
                            let magnitude = Swift.abs(perUnit)
                            let whole = 256 * magnitude * (GridLineRaster.unit - 128)
                            let inner = Swift.min(kLast, kr &- 1)
                            var cellLeft = Double(k << 8)
                            var givenMagnitude = sign &* given
                            // The total is at least 0.5 (cellLeft > xl: k is past kl) and at
                            // most about 65,536.5: its floor is its integer part.
                            while k <= inner {
                                let now = GridLineRaster.floorOfPositive(
                                    (cellLeft - xl) * magnitude * GridLineRaster.unit + whole + 0.5)
                                acc[k &- left] &+= sign &* (now &- givenMagnitude)
                                givenMagnitude = now
                                cellLeft += GridLineRaster.unit
                                k &+= 1
                            }
                            given = sign &* givenMagnitude
                            if k <= kLast {
                                let now = running(k)
                                acc[k &- left] &+= now &- given
                                given = now
                            }
                            if kFirst &- left < touchedFirst { touchedFirst = kFirst &- left }
                            if kLast &- left > touchedLast { touchedLast = kLast &- left }
                        }
                        // The rest of the row's total goes to the cell after the edge, unless
                        // the walk stopped at the region's right side first.
                        if kLast >= kr { add(kr &+ 1, total &- given) }
                        continue
                    }
                    k = kl
                }
                // Within one cell: the part of the cell right of the edge, and the whole row
                // height for the cells beyond.
                let mid = (xTop + xBottom) / 2 - Double(k << 8)
                let share = GridLineRaster.round(Double(h) * (GridLineRaster.unit - mid))
                guard k >= left, k < right else {
                    add(k, share)
                    add(k &+ 1, total &- share)
                    continue
                }
                // Both cells inside the region (most rows of a steep edge): one update of the
                // row's touched cells for the two.
                let c = k &- left
                acc[c] &+= share
                acc[c &+ 1] &+= total &- share
                if c < touchedFirst { touchedFirst = c }
                if c &+ 1 > touchedLast { touchedLast = c &+ 1 }
            }

            if touchedFirst <= touchedLast {
                GridLineRaster.composite(
                    acc, from: touchedFirst, last: touchedLast, width: width,
                    into: t.data + (row &- t.cellY) &* t.stride + (left &- t.cellX), colour: colour)
            }
            row &+= 1
        }
        edges.deinitialize(count: edgeCount)
        self.directRows &+= directRows
        self.summedRows &+= summedRows
        t.markDirty(left - t.cellX, top - t.cellY, width, bottom - top + 1)
    }

    /// An edge as `fill` walks it down a strip of rows within one cell.
    private struct StripSide {
        let ax: Double
        let slope: Double
        let cell: Int
        let cellLeft: Double
        let cellRight: Double
        /// The edge's x at the top of the next row, and the next row's yBottom - a.y as a
        /// double (integers, exact, 256 more each row).
        var xTop: Double
        var dy: Double

        init(_ edge: Edge, row: Int) {
            ax = edge.ax
            slope = edge.slope
            cell = edge.cellTop
            cellLeft = Double(cell << 8)
            cellRight = cellLeft + GridLineRaster.unit
            xTop = edge.xTop
            dy = Double((Int64(row &+ 1) << 8) &- edge.ay)
        }

        /// The magnitude of the edge's share of its cell in the row it leaves at `xBottom`
        /// (see `fill`; the share is the edge's sign times it), and on to the next row. Both ends
        /// lie in the cell, so mid is within 0...256, the rounded value within 0.5...65,536.5 and
        /// the magnitude within 0...65,536.
        @inline(__always)
        mutating func magnitude(to xBottom: Double) -> Int64 {
            let mid = (xTop + xBottom) / 2 - cellLeft
            xTop = xBottom
            dy += GridLineRaster.unit
            return GridLineRaster.floorOfPositive(GridLineRaster.unit * (GridLineRaster.unit - mid) + 0.5)
        }
    }

    /// Blends `colour` into `pixel` at the coverage of a row's running sum `sum` (not zero),
    /// its level looked up in `levels` (`coverageLevels`, read once by the caller).
    @inline(__always)
    private static func blend(
        _ colour: Premultiplied.Levels, levels: UnsafePointer<UInt8>, into pixel: UnsafeMutablePointer<UInt32>,
        sum: Int64
    ) {
        let coverage = Swift.min(sum < 0 ? 0 &- sum : sum, full)
        colour.blend(into: pixel, level: Int(levels[coverageByte(coverage)]))
    }

    /// Composites a row from its summed deltas (`acc`, cells `first` to `last` touched, all
    /// cleared after): coverage is the running sum along the row, blended where it is not zero.
    ///
    /// A function of its own, not inlined: inside `fill` its few values did not stay in
    /// registers, and shallow lines composite a few hundred cells a row.
    @inline(never)
    private static func composite(
        _ acc: UnsafeMutablePointer<Int64>, from first: Int, last: Int, width: Int,
        into line: UnsafeMutablePointer<UInt32>, colour: Premultiplied.Levels
    ) {
        let levelOf = GridLineRaster.coverageLevels
        var sum: Int64 = 0
        var c = first
        while c < width {
            sum &+= acc[c]
            acc[c] = 0
            if sum != 0 {
                blend(colour, levels: levelOf, into: line + c, sum: sum)
            } else if c >= last {
                // Nothing further on this row (every cell touched is cleared).
                break
            }
            c &+= 1
        }
    }

    /// A colour as a premultiplied ARGB32 pixel, blended over pixels with the OVER operator,
    /// two channels at a time in 32-bit integers (as pixman does).
    struct Premultiplied {
        let pixel: UInt32

        init(_ color: Color) {
            func byte(_ v: Double) -> UInt32 { UInt32((Swift.max(0, Swift.min(1, v)) * 255).rounded()) }
            let a = byte(color.alpha)
            pixel =
                a << 24 | Premultiplied.scale(byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue), a)
                & 0x00ff_ffff
        }

        /// Every channel of `x` times `a` / 255, rounded.
        @inline(__always)
        static func scale(_ x: UInt32, _ a: UInt32) -> UInt32 {
            var rb = (x & 0x00ff_00ff) &* a &+ 0x0080_0080
            rb = ((rb &+ ((rb >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
            var ag = ((x >> 8) & 0x00ff_00ff) &* a &+ 0x0080_0080
            ag = (ag &+ ((ag >> 8) & 0x00ff_00ff)) & 0xff00_ff00
            return rb | ag
        }

        /// The source pixel and its inverse alpha at each coverage level (`GridCoverageLevels`),
        /// so a pixel's blend is one lookup and one scale of what lies under it. Kept in the
        /// raster's own buffer: a fixed-size array value was copied to the stack at every
        /// lookup.
        ///
        /// Each level also remembers the last pixel it was blended over and the result: a line
        /// crosses plain fills, so most blends repeat the one before at their level (the
        /// result is a function of the two alone).
        struct Levels {
            /// Sources at 0...steps, inverse alphas at steps + 1 + level, then each level's last
            /// pixel under and result at 2 (steps + 1) + level and 3 (steps + 1) + level.
            let table: UnsafeMutablePointer<UInt32>

            static let count = 4 * (GridCoverageLevels.steps + 1)
            private static let inverses = GridCoverageLevels.steps + 1
            private static let unders = 2 * (GridCoverageLevels.steps + 1)
            private static let results = 3 * (GridCoverageLevels.steps + 1)

            /// A table already built by `init(_:in:)`.
            init(built table: UnsafeMutablePointer<UInt32>) { self.table = table }

            init(_ colour: Premultiplied, in table: UnsafeMutablePointer<UInt32>) {
                self.table = table
                let inverses = table + Levels.inverses
                table[0] = 0
                inverses[0] = 255
                for level in 1...GridCoverageLevels.steps {
                    let c = GridCoverageLevels.coverage(level: UInt32(level))
                    let source = c == 255 ? colour.pixel : Premultiplied.scale(colour.pixel, c)
                    table[level] = source
                    inverses[level] = 255 - (source >> 24)
                }
                // Remembered blends start as blends over transparent black.
                for level in 0...GridCoverageLevels.steps {
                    table[Levels.unders + level] = 0
                    table[Levels.results + level] = table[level] &+ Premultiplied.scale(0, inverses[level])
                }
            }

            /// Blends the colour at `level` (0 to `GridCoverageLevels.steps`) over the pixel.
            @inline(__always)
            func blend(into target: UnsafeMutablePointer<UInt32>, level: Int) {
                guard level > 0 else { return }
                let source = table[level]
                let inverse = table[Levels.inverses &+ level]
                guard inverse != 0 else {
                    target.pointee = source
                    return
                }
                let under = target.pointee
                if under == table[Levels.unders &+ level] {
                    target.pointee = table[Levels.results &+ level]
                    return
                }
                let result = source &+ Premultiplied.scale(under, inverse)
                table[Levels.unders &+ level] = under
                table[Levels.results &+ level] = result
                target.pointee = result
            }
        }
    }
}
