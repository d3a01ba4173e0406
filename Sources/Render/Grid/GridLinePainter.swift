import Geodesy
import Grids
import MapModel

/// A grid's lines ready to draw, one level at a time, over the whole view or one tile of it.
///
/// Lines are kept as their chunks (see `GridLine.chunkStarts`): stretches that start at fixed
/// points of the line, so a chunk has the same vertices in every view that holds it. A region
/// draws the chunks that reach it and nothing else, so what it draws depends on the region
/// alone: a tile drawn as part of a block (see `MapRenderer.draw`) gets the bytes it gets when
/// drawn by itself. Dash patterns restart at every chunk start, so dashes are fixed to the
/// line too.
///
/// On an image the lines are filled as outlines by `GridLineRaster`; on vector surfaces (PDF,
/// SVG) the same runs are stroked by Cairo.
struct GridLinePainter {
    /// One level's lines and how they are drawn, sizes in pixels.
    struct Family {
        let color: Color
        let width: Double
        let cap: LineCap
        let join: LineJoin
        /// The dash pattern; empty for solid lines.
        let dash: [Double]
        var lines: [GridLine] = []
        /// The bounds of each line's chunks, global pixels.
        var chunkBounds: [[Rect]] = []
        /// The union of each line's chunk bounds (those that are not empty): a region that
        /// misses it misses every chunk of the line. A metatile draws its lines tile by tile,
        /// and most of a family's lines reach none of a tile; checking their chunks one by one
        /// was most of `runs`.
        var lineBounds: [Rect] = []

        /// How far ink reaches from a line: half its width, a square cap's half width more, a
        /// pixel of anti-aliasing.
        var reach: Double { width + 1 }
    }

    /// A polyline in global pixels with the indices where its chunks start.
    struct Path {
        var points: [PlanePoint]
        /// Empty in the runs of an undashed family, where nothing reads them.
        var chunkStarts: [Int]
    }

    /// Finest level first, so coarser lines lie on top.
    private(set) var families: [Family] = []

    /// `levels` finest first: each level's lines and its line symbol (sizes in points).
    init(_ levels: [(lines: [GridLine], symbol: LineSymbol)], pixelsPerPoint: Double) {
        for (lines, symbol) in levels {
            let width = symbol.width * pixelsPerPoint
            guard width > 0, symbol.opacity > 0, symbol.color.alpha > 0, !lines.isEmpty else { continue }
            var family = Family(
                color: symbol.color.withOpacity(symbol.opacity), width: width, cap: symbol.cap, join: symbol.join,
                dash: DashPattern.pixels(symbol.dash) { $0 * pixelsPerPoint })
            for line in lines where line.vertices.count >= 2 {
                family.lines.append(line)
                // Chunk c runs from its start to the next chunk's (the last to the last vertex);
                // the line's bounds are the union of those not empty, in order. One array a
                // line: the ends, the chunks and the filtered chunks were three.
                let starts = line.chunkStarts
                let last = line.vertices.count - 1
                var chunks: [Rect] = []
                chunks.reserveCapacity(starts.count)
                var union = Rect.empty
                for c in starts.indices {
                    var bounds = Rect.empty
                    let end = c + 1 < starts.count ? starts[c + 1] : last
                    for v in line.vertices[starts[c]...end] { bounds.include(x: v.point.x, y: v.point.y) }
                    chunks.append(bounds)
                    if !bounds.isEmpty { union = union.union(bounds) }
                }
                family.chunkBounds.append(chunks)
                family.lineBounds.append(union)
            }
            families.append(family)
        }
    }

    /// Draws every chunk that reaches `region` (global pixels) into a context whose units are
    /// the view's pixels: straight into the pixels through `raster` when the context draws on
    /// an image, else as Cairo strokes.
    func draw(in region: Rect, view: View, into context: CairoContext, raster: GridLineRaster) {
        let target = GridLineRaster.Target(context, view: view)
        // Each family borrowed where it lies: `for family in families`, and `families[f]`,
        // copied each (four arrays retained and released) for every tile.
        families.withUnsafeBufferPointer { families in
            for f in families.indices {
                draw(families[f], in: region, view: view, into: context, raster: raster, target: target)
            }
        }
    }

    private func draw(
        _ family: Family, in region: Rect, view: View, into context: CairoContext, raster: GridLineRaster,
        target: GridLineRaster.Target?
    ) {
        let near = region.expanded(by: family.reach)
        if let target {
            if family.dash.isEmpty {
                // Solid lines: outlined straight from the lines' vertices (`outlines`).
                GridLinePainter.stretches(family, near: near, into: &raster.stretches)
                if raster.stretches.count <= GridLineOutline.maxScanned {
                    GridLinePainter.outlines(
                        family, raster.stretches, used: &raster.stretchUsed, scratch: &raster.outlineScratch
                    ) { scratch in
                        raster.fill(
                            scratch.outline, ends: scratch.ends, color: family.color, region: region,
                            target: target)
                    }
                    return
                }
            }
            let runs = GridLinePainter.runs(family, near: near)
            guard !runs.isEmpty else { return }
            for run in runs {
                GridLineOutline.outline(
                    run, halfWidth: family.width / 2, cap: family.cap, into: &raster.outlineScratch)
                raster.fill(
                    raster.outlineScratch.outline, ends: raster.outlineScratch.ends, color: family.color,
                    region: region, target: target)
            }
        } else {
            let runs = GridLinePainter.runs(family, near: near)
            guard !runs.isEmpty else { return }
            context.save()
            context.newPath()
            for run in runs {
                let start = view.transform.image(global: run[0])
                context.moveTo(start.x, start.y)
                for p in run.dropFirst().map(view.transform.image(global:)) { context.lineTo(p.x, p.y) }
            }
            context.setColor(family.color)
            context.setLineWidth(family.width)
            context.setLineCap(family.cap)
            context.setLineJoin(family.join)
            context.stroke()
            context.restore()
        }
    }

    /// The polylines to draw for a region: each line's chunks that reach `near`, consecutive
    /// ones joined, pieces that meet end to end joined (two ends drawn apart would leave a
    /// faint seam where their anti-aliased edges overlap), and cut into dashes.
    static func runs(_ family: Family, near: Rect) -> [[PlanePoint]] {
        let dashed = !family.dash.isEmpty
        var list: [Stretch] = []
        stretches(family, near: near, into: &list)
        // Each stretch becomes one path, its points copied once into an array of their number
        // (grown chunk by chunk, a path was reallocated at every chunk).
        var paths: [Path] = []
        paths.reserveCapacity(list.count)
        for stretch in list {
            let line = family.lines[stretch.line]
            var points: [PlanePoint] = []
            points.reserveCapacity(stretch.to - stretch.from + 1)
            for v in stretch.from...stretch.to { points.append(line.vertices[v].point) }
            // Only dashes read where the chunks start (joining carries them along).
            var chunkStarts: [Int] = []
            if dashed {
                chunkStarts.reserveCapacity(stretch.chunks.count)
                for k in stretch.chunks { chunkStarts.append(line.chunkStarts[k] - stretch.from) }
            }
            paths.append(Path(points: points, chunkStarts: chunkStarts))
        }
        let joined = GridLineOutline.join(paths)
        guard dashed else { return joined.map(\.points) }
        return joined.flatMap { GridLineOutline.dashes($0, pattern: family.dash) }
    }

    /// A stretch of consecutive chunks of one line that reach a region: chunks `chunks`, vertices
    /// `from...to` of line `line` of a family, and their first and last points.
    struct Stretch {
        let line: Int
        let chunks: ClosedRange<Int>
        let from: Int
        let to: Int
        let start: PlanePoint
        let end: PlanePoint
    }

    /// The stretches `runs` makes its paths of, in the same order, as indices into the lines
    /// (into `list`, emptied first, its room kept).
    static func stretches(_ family: Family, near: Rect, into list: inout [Stretch]) {
        list.removeAll(keepingCapacity: true)
        for (index, line) in family.lines.enumerated() where family.lineBounds[index].intersects(near) {
            let bounds = family.chunkBounds[index]
            var c = 0
            while c < bounds.count {
                guard bounds[c].intersects(near) else {
                    c += 1
                    continue
                }
                var last = c
                while last + 1 < bounds.count, bounds[last + 1].intersects(near) { last += 1 }
                let from = line.chunkStarts[c]
                let to = last + 1 < line.chunkStarts.count ? line.chunkStarts[last + 1] : line.vertices.count - 1
                list.append(
                    Stretch(
                        line: index, chunks: c...last, from: from, to: to, start: line.vertices[from].point,
                        end: line.vertices[to].point))
                c = last + 1
            }
        }
    }

    /// The outline (`GridLineOutline.outlineOfPoints`) of each run `runs` gives a solid
    /// family, in its order, handed to `body` in `scratch`: the stretches joined as
    /// `GridLineOutline.joinByScanning` joins paths, their points copied once, straight from
    /// the lines into the outline's working points.
    ///
    /// Why: `runs` copied each stretch into an array of its own, joined ones into another,
    /// and made arrays of the paths, their ends and the runs, for every family of every tile,
    /// all freed after the outlines were made (about 11 M instructions in the New York MGRS
    /// pyramid, callgrind).
    static func outlines(
        _ family: Family, _ stretches: [Stretch], used: inout [Bool], scratch: inout GridLineOutline.Scratch,
        _ body: (GridLineOutline.Scratch) -> Void
    ) {
        guard !stretches.isEmpty else { return }
        used.removeAll(keepingCapacity: true)
        used.append(contentsOf: repeatElement(false, count: stretches.count))
        // Paths nothing leads into first, then whatever is left (closed loops).
        for i in stretches.indices where !used[i] {
            let start = stretches[i].start
            if stretches.contains(where: { same($0.end, start) }) { continue }
            follow(i, family, stretches, used: &used, scratch: &scratch)
            body(scratch)
        }
        for i in stretches.indices where !used[i] {
            follow(i, family, stretches, used: &used, scratch: &scratch)
            body(scratch)
        }
    }

    @inline(__always)
    private static func same(_ a: PlanePoint, _ b: PlanePoint) -> Bool {
        a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
    }

    /// One run from stretch `first`: it and the first unused stretch that starts where it
    /// ends, and so on (the join's order), outlined into `scratch`.
    private static func follow(
        _ first: Int, _ family: Family, _ stretches: [Stretch], used: inout [Bool],
        scratch: inout GridLineOutline.Scratch
    ) {
        scratch.points.removeAll(keepingCapacity: true)
        var current = first
        var skipFirst = false
        while true {
            used[current] = true
            let stretch = stretches[current]
            let vertices = family.lines[stretch.line].vertices
            // A joined stretch's first point is the last one's end (the join drops it).
            var v = skipFirst ? stretch.from + 1 : stretch.from
            while v <= stretch.to {
                GridLineOutline.appendPoint(vertices[v].point, to: &scratch)
                v += 1
            }
            guard let next = stretches.indices.first(where: { !used[$0] && same(stretches[$0].start, stretch.end) })
            else { break }
            current = next
            skipFirst = true
        }
        GridLineOutline.outlineOfPoints(halfWidth: family.width / 2, cap: family.cap, into: &scratch)
    }
}
