import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// Grid ink takes 17 coverage levels (sixteenths), so that a grid over a map adds few colours
/// and its tiles fit a palette: lines and label sprites, checked against the geometry of the
/// line and against Cairo's own drawing of the label.
@Suite struct GridCoverageLevelsTests {
    /// The 8-bit coverages a pixel may take: k/16 in bytes, rounded.
    static let levels = Set((0...16).map { UInt32((Double($0) * 255 / 16).rounded()) })

    /// Premultiplied ARGB32 pixels of a surface, row by row.
    static func words(_ surface: CairoSurface) -> [[UInt32]] {
        surface.withPixels { bytes in
            (0..<surface.height).map { y in
                (0..<surface.width).map { x in bytes.load(fromByteOffset: y * surface.stride + x * 4, as: UInt32.self) }
            }
        }
    }

    /// A white square image, a context on it, and the raster's target in its pixels (global
    /// pixels from 0).
    static func whiteCanvas(_ size: Int) throws -> (CairoSurface, CairoContext, GridLineRaster.Target) {
        let surface = try CairoSurface.image(width: size, height: size)
        let context = CairoContext(surface)
        context.setColor(.white)
        context.paint()
        let view = try View(resolution: 1, originX: 0, originY: 0, width: size, height: size)
        return (surface, context, try #require(GridLineRaster.Target(context, view: view)))
    }

    /// A black line 1.2 px wide leaning 1 px in 40 (as grid lines lean on a Web Mercator map),
    /// filled over white: every pixel is white darkened by one of the levels, and each row's
    /// ink adds up to the line's width across the row, centred where the line crosses it.
    @Test func linePixelsTakeTheLevelsAndStayInPlace() throws {
        let size = 64
        let (surface, context, target) = try Self.whiteCanvas(size)
        defer { withExtendedLifetime(context) {} }
        let width = 1.2
        let lean = 1.0 / 40
        func centre(_ y: Double) -> Double { 20.3 + lean * (y + 10) }
        let line = [PlanePoint(x: centre(-10), y: -10), PlanePoint(x: centre(Double(size + 10)), y: Double(size + 10))]
        GridLineRaster().fill(
            GridLineOutline.polygons(line, halfWidth: width / 2, cap: .butt), color: .black,
            region: Rect(x: 0, y: 0, width: Double(size), height: Double(size)), target: target)
        var distinct = Set<UInt32>()
        for (y, row) in Self.words(surface).enumerated() {
            var ink = 0.0
            var moment = 0.0
            for (x, word) in row.enumerated() {
                let value = word & 0xFF
                #expect(word == 0xFF00_0000 | value * 0x01_0101, "pixel (\(x), \(y)) is not a grey")
                let coverage = 255 - value
                #expect(Self.levels.contains(coverage), "pixel (\(x), \(y)) has coverage \(coverage)")
                distinct.insert(coverage)
                ink += Double(coverage) / 255
                moment += Double(coverage) / 255 * (Double(x) + 0.5)
            }
            // Across a row the band is its width divided by the cosine of its lean.
            let across = width * (1 + lean * lean).squareRoot()
            #expect(abs(ink - across) < 0.1, "row \(y): ink \(ink) for a line \(across) px across")
            #expect(abs(moment / ink - centre(Double(y) + 0.5)) < 0.1, "row \(y): ink centred at \(moment / ink)")
        }
        #expect(distinct.count > 4)  // the edges are still anti-aliased
    }

    /// A long, nearly horizontal line, reaching far beyond both sides of the image (as a
    /// northing line does beyond a tile): each column's ink adds up to the line's height
    /// across it, centred where the line crosses it, and drawing the image as four strips,
    /// each filling only its own region, gives the same pixels as drawing it whole (the
    /// raster walks only a region's own cells of an edge and carries the rest in whole).
    @Test func longShallowLinesFillOnlyTheirRegion() throws {
        let size = 64
        let width = 1.2
        let lean = 1.0 / 40
        func centre(_ x: Double) -> Double { 30.7 + lean * (x - 5) }
        let line = [PlanePoint(x: -700, y: centre(-700)), PlanePoint(x: 900, y: centre(900))]
        let outline = GridLineOutline.polygons(line, halfWidth: width / 2, cap: .butt)
        func draw(strips: Int) throws -> [[UInt32]] {
            let (surface, context, target) = try Self.whiteCanvas(size)
            defer { withExtendedLifetime(context) {} }
            let raster = GridLineRaster()
            let side = Double(size / strips)
            for strip in 0..<strips {
                raster.fill(
                    outline, color: .black,
                    region: Rect(x: Double(strip) * side, y: 0, width: side, height: Double(size)),
                    target: target)
            }
            return Self.words(surface)
        }
        let whole = try draw(strips: 1)
        #expect(try draw(strips: 4) == whole, "strips differ from the whole")
        let across = width * (1 + lean * lean).squareRoot()
        for x in 0..<size {
            var ink = 0.0
            var moment = 0.0
            for y in 0..<size {
                let coverage = 255 - whole[y][x] & 0xFF
                #expect(Self.levels.contains(coverage), "pixel (\(x), \(y)) has coverage \(coverage)")
                ink += Double(coverage) / 255
                moment += Double(coverage) / 255 * (Double(y) + 0.5)
            }
            #expect(abs(ink - across) < 0.1, "column \(x): ink \(ink) for a line \(across) px across")
            #expect(abs(moment / ink - centre(Double(x) + 0.5)) < 0.1, "column \(x): ink centred at \(moment / ink)")
        }
    }

    /// A label drawn from its sprite: alpha and share of text in sixteenths, within half a
    /// level of what Cairo draws for the same text, full text and full halo exactly Cairo's,
    /// and fewer colours than Cairo's drawing.
    @Test func labelSpritesTakeTheLevelsAndMatchCairo() throws {
        let map = try GridRenderTests.map("nyc.json", grid: nil)
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        let font = FontSpec(family: "DejaVu Sans", bold: false, italic: false, sizePixels: 10.5)
        let colour = Color(rgb: 0x2d5fa6)
        let halo = (color: Color.white, width: 1.9)
        let origin = PlanePoint(x: 0, y: 0)
        let box = Rect(x: 0, y: 0, width: 1, height: 1)
        let label = GridLabelCandidate(
            text: "18TWL 84km", font: font, color: colour, halo: halo, corner: origin, textBox: box, box: box,
            rank: GridLabelRank(level: 0, roundness: 0, order: 0, key: 0), anchor: origin)
        let drawn = try CairoSurface.image(width: 120, height: 32)
        GridLabelPainter(text: text).draw(label, in: CairoContext(drawn), x: 6, y: 6)
        let reference = try CairoSurface.image(width: 120, height: 32)
        text.layout(label.text, font: font).draw(in: CairoContext(reference), x: 6, y: 6, color: colour, halo: halo)
        // Text (0x2d, 0x5f, 0xa6) over white halo: red tells them apart best.
        let textRed = Double(0x2d)
        var drawnColours = Set<UInt32>()
        var referenceColours = Set<UInt32>()
        for (y, (row, expected)) in zip(Self.words(drawn), Self.words(reference)).enumerated() {
            for (x, (word, cairo)) in zip(row, expected).enumerated() {
                drawnColours.insert(word)
                referenceColours.insert(cairo)
                let alpha = word >> 24
                #expect(Self.levels.contains(alpha), "pixel (\(x), \(y)) has alpha \(alpha)")
                // red = 255 (alpha - u) + textRed u, u the share of text, in 0...1.
                let u = (Double(alpha) - Double((word >> 16) & 0xFF)) / (255 - textRed)
                #expect(abs(u * 16 - (u * 16).rounded()) < 0.1, "pixel (\(x), \(y)): text share \(u)")
                for shift in stride(from: 0, through: 24, by: 8) {
                    let a = Int((word >> UInt32(shift)) & 0xFF)
                    let b = Int((cairo >> UInt32(shift)) & 0xFF)
                    #expect(abs(a - b) <= 9, "pixel (\(x), \(y)): \(word) against Cairo's \(cairo)")
                }
                let solid = [0xFF2d_5fa6, 0xFFFF_FFFF, 0] as [UInt32]
                if solid.contains(cairo) { #expect(word == cairo, "pixel (\(x), \(y)) of solid ink changed") }
            }
        }
        #expect(drawnColours.count < referenceColours.count)
        #expect(drawnColours.contains(0xFF2d_5fa6) && drawnColours.contains(0xFFFF_FFFF))
    }
}
