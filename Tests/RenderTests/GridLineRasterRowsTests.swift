import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// The line raster draws a row with just two edges, each within one cell (a line's two sides,
/// most rows of a grid line down a tile), straight from the two; every other row sums its
/// edges' deltas cell by cell. Both give the same pixels, and grid lines take the direct way.
@Suite struct GridLineRasterRowsTests {
    /// One random drawing: the outlines of a few lines (steep, shallow or any way, reaching
    /// past the image or not, thin or wide, any cap), a colour, and the region filled.
    struct Case {
        let size: Int
        let origin: PlanePoint
        let outlines: [[[PlanePoint]]]
        let colors: [Color]
        let region: Rect
        let background: [(rect: Rect, color: Color)]

        init(_ random: inout Xorshift) {
            size = 24 + random.int(48)
            let s = Double(size)
            // Tiles have whole-pixel origins; single images may not.
            origin =
                random.int(2) == 0
                ? PlanePoint(x: Double(random.int(4000)), y: Double(random.int(4000)))
                : PlanePoint(x: random.value(0...4000), y: random.value(0...4000))
            var outlines: [[[PlanePoint]]] = []
            var colors: [Color] = []
            for _ in 0..<(1 + random.int(3)) {
                let kind = random.int(3)
                var points: [PlanePoint] = []
                var p = PlanePoint(x: random.value(-0.5 * s...1.5 * s), y: random.value(-0.5 * s...1.5 * s))
                for _ in 0..<(2 + random.int(5)) {
                    points.append(PlanePoint(x: origin.x + p.x, y: origin.y + p.y))
                    let length = random.value(1...(2 * s))
                    let lean = random.value(-0.1...0.1)
                    switch kind {
                    case 0: p = PlanePoint(x: p.x + lean * length, y: p.y + length)  // down a tile
                    case 1: p = PlanePoint(x: p.x + length, y: p.y + lean * length)  // across it
                    default: p = PlanePoint(x: p.x + random.value(-s...s), y: p.y + random.value(-s...s))
                    }
                }
                let width = random.value(0.2...4)
                let cap: LineCap = [.butt, .butt, .round, .square][random.int(4)]
                outlines.append(GridLineOutline.polygons(points, halfWidth: width / 2, cap: cap))
                colors.append(
                    Color(
                        red: random.unit(), green: random.unit(), blue: random.unit(),
                        alpha: random.int(3) == 0 ? random.value(0.2...1) : 1))
            }
            self.outlines = outlines
            self.colors = colors
            // The whole image, or a tile-like part of it.
            if random.int(2) == 0 {
                region = Rect(x: origin.x - 5, y: origin.y - 5, width: s + 10, height: s + 10)
            } else {
                let x = Double(random.int(size / 2))
                let y = Double(random.int(size / 2))
                region = Rect(
                    x: (origin.x + x).rounded(.down), y: (origin.y + y).rounded(.down),
                    width: Double(1 + random.int(size / 2)), height: Double(1 + random.int(size / 2)))
            }
            background = (0..<random.int(4)).map { _ in
                (
                    Rect(
                        x: random.value(0...s), y: random.value(0...s), width: random.value(0...s),
                        height: random.value(0...s)),
                    Color(red: random.unit(), green: random.unit(), blue: random.unit())
                )
            }
        }

        /// The case drawn by `raster` (premultiplied ARGB32 words, row by row).
        func draw(_ raster: GridLineRaster) throws -> [UInt32] {
            let surface = try CairoSurface.image(width: size, height: size)
            let context = CairoContext(surface)
            context.setColor(.white)
            context.paint()
            for (rect, color) in background {
                context.setColor(color)
                context.rectangle(rect.minX, rect.minY, rect.width, rect.height)
                context.fill()
            }
            let view = try View(resolution: 1, originX: origin.x, originY: origin.y, width: size, height: size)
            let target = try #require(GridLineRaster.Target(context, view: view))
            for (outline, color) in zip(outlines, colors) {
                raster.fill(outline, color: color, region: region, target: target)
            }
            return withExtendedLifetime(context) {
                surface.withPixels { bytes in
                    (0..<size).flatMap { y in
                        (0..<size).map { x in bytes.load(fromByteOffset: y * surface.stride + x * 4, as: UInt32.self) }
                    }
                }
            }
        }
    }

    /// Random lines drawn with direct rows and with every row summed: the same pixels.
    @Test func directRowsGiveTheSummedPixels() throws {
        var random = Xorshift(state: 0x2545_F491_4F6C_DD1D)
        let direct = GridLineRaster()
        let summed = GridLineRaster()
        summed.drawsRowsDirectly = false
        for index in 0..<3000 {
            let drawing = Case(&random)
            let a = try drawing.draw(direct)
            let b = try drawing.draw(summed)
            #expect(a == b, "case \(index)")
            if a != b { break }
        }
        #expect(summed.directRows == 0)
        // Both ways were taken, many times.
        #expect(direct.directRows > 5_000, "\(direct.directRows) direct rows")
        #expect(direct.summedRows > 5_000, "\(direct.summedRows) summed rows")
    }

    /// A grid line down a tile (1 px in 40 off vertical, 1.1 px wide, crossing it whole) takes
    /// the direct way in every row but those where its outline has a vertex (7 a side) or a
    /// side crosses into the next column (once in 40 rows).
    @Test func gridLinesDownATileAreDrawnDirectly() throws {
        let (_, context, target) = try GridCoverageLevelsTests.whiteCanvas(256)
        defer { withExtendedLifetime(context) {} }
        let line = (0...8).map { k in PlanePoint(x: 100.3 + Double(k) * 40 / 40, y: -20 + Double(k) * 40) }
        let raster = GridLineRaster()
        raster.fill(
            GridLineOutline.polygons(line, halfWidth: 0.55, cap: .butt), color: .black,
            region: Rect(x: 0, y: 0, width: 256, height: 256), target: target)
        #expect(raster.directRows + raster.summedRows == 256)
        #expect(raster.summedRows <= 32, "\(raster.summedRows) rows summed")
    }
}

extension Xorshift {
    /// Uniform in [0, 1).
    fileprivate mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    fileprivate mutating func value(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }
    fileprivate mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
