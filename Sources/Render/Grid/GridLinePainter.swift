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
                let ends = line.chunkStarts + [line.vertices.count - 1]
                family.lines.append(line)
                let chunks = (0..<(ends.count - 1)).map { c in
                    var bounds = Rect.empty
                    for v in line.vertices[ends[c]...ends[c + 1]] { bounds.include(x: v.point.x, y: v.point.y) }
                    return bounds
                }
                family.chunkBounds.append(chunks)
                family.lineBounds.append(chunks.filter { !$0.isEmpty }.reduce(Rect.empty) { $0.union($1) })
            }
            families.append(family)
        }
    }

    /// Draws every chunk that reaches `region` (global pixels) into a context whose units are
    /// the view's pixels: straight into the pixels through `raster` when the context draws on
    /// an image, else as Cairo strokes.
    func draw(in region: Rect, view: View, into context: CairoContext, raster: GridLineRaster) {
        let target = GridLineRaster.Target(context, view: view)
        for family in families {
            let runs = GridLinePainter.runs(family, near: region.expanded(by: family.reach))
            guard !runs.isEmpty else { continue }
            if let target {
                for run in runs {
                    GridLineOutline.outline(
                        run, halfWidth: family.width / 2, cap: family.cap, into: &raster.outlineScratch)
                    raster.fill(
                        raster.outlineScratch.outline, ends: raster.outlineScratch.ends, color: family.color,
                        region: region, target: target)
                }
            } else {
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
    }

    /// The polylines to draw for a region: each line's chunks that reach `near`, consecutive
    /// ones joined, pieces that meet end to end joined (two ends drawn apart would leave a
    /// faint seam where their anti-aliased edges overlap), and cut into dashes.
    static func runs(_ family: Family, near: Rect) -> [[PlanePoint]] {
        var paths: [Path] = []
        let dashed = !family.dash.isEmpty
        for (index, line) in family.lines.enumerated() where family.lineBounds[index].intersects(near) {
            let bounds = family.chunkBounds[index]
            // Each stretch of consecutive chunks that reach `near` becomes one path, its
            // points copied once into an array of their number (grown chunk by chunk, a path
            // was reallocated at every chunk).
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
                var points: [PlanePoint] = []
                points.reserveCapacity(to - from + 1)
                for v in from...to { points.append(line.vertices[v].point) }
                // Only dashes read where the chunks start (joining carries them along).
                var chunkStarts: [Int] = []
                if dashed {
                    chunkStarts.reserveCapacity(last - c + 1)
                    for k in c...last { chunkStarts.append(line.chunkStarts[k] - from) }
                }
                paths.append(Path(points: points, chunkStarts: chunkStarts))
                c = last + 1
            }
        }
        let joined = GridLineOutline.join(paths)
        guard dashed else { return joined.map(\.points) }
        return joined.flatMap { GridLineOutline.dashes($0, pattern: family.dash) }
    }
}
