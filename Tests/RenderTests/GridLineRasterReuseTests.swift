import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// One raster fills every grid line of a worker: its vertex buffers are grown and reused from
/// fill to fill, and its colour table is built again only when the colour changes. Neither may
/// change a pixel: a raster that has drawn thousands of other lines draws what a new one does.
@Suite struct GridLineRasterReuseTests {
    /// Random drawings (`GridLineRasterRowsTests.Case`: a few lines of a few colours, any
    /// size) drawn in turn by one raster and each by a raster of its own: the same pixels.
    @Test func aRasterThatHasDrawnBeforeDrawsAsANewOne() throws {
        var random = Xorshift(state: 0x9E37_79B9_7F4A_7C15)
        let shared = GridLineRaster()
        for index in 0..<1_500 {
            let drawing = GridLineRasterRowsTests.Case(&random)
            let a = try drawing.draw(shared)
            let b = try drawing.draw(GridLineRaster())
            #expect(a == b, "case \(index)")
            if a != b { break }
        }
    }

    /// Fills of one colour in a row (a family's lines, tile after tile) build the colour's
    /// table once; another colour builds it again, and so does the first colour after it.
    @Test func aColoursTableIsBuiltOnceForItsFills() throws {
        let (_, context, target) = try GridCoverageLevelsTests.whiteCanvas(256)
        defer { withExtendedLifetime(context) {} }
        let raster = GridLineRaster()
        let region = Rect(x: 0, y: 0, width: 256, height: 256)
        let grey = Color(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.8)
        for k in 0..<10 {
            let x = 10.3 + Double(k) * 20
            let line = [PlanePoint(x: x, y: -5), PlanePoint(x: x + 3, y: 261)]
            raster.fill(
                GridLineOutline.polygons(line, halfWidth: 0.55, cap: .butt), color: grey, region: region, target: target
            )
        }
        #expect(raster.levelTablesBuilt == 1)
        let across = [PlanePoint(x: -5, y: 100.4), PlanePoint(x: 261, y: 104)]
        raster.fill(
            GridLineOutline.polygons(across, halfWidth: 0.55, cap: .butt), color: .black, region: region, target: target
        )
        raster.fill(
            GridLineOutline.polygons(across, halfWidth: 1, cap: .butt), color: grey, region: region, target: target)
        #expect(raster.levelTablesBuilt == 3)
    }

    /// Outlines made with one scratch in turn (lines of any length, turns, repeated points
    /// and caps) are those made with fresh arrays, to the bit.
    @Test func outlinesWithAKeptScratchAreThoseMadeAfresh() {
        var random = Xorshift(state: 0x6A09_E667_F3BC_C909)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var scratch = GridLineOutline.Scratch()
        var polygons = 0
        for index in 0..<2_000 {
            var p = PlanePoint(x: unit() * 500, y: unit() * 500)
            var line = [p]
            for _ in 0..<(Int(random.next() % 30)) {
                // Now and then a repeated point, or a sharp turn (a disc at the joint).
                if random.next() % 8 != 0 { p = PlanePoint(x: p.x + unit() * 80 - 40, y: p.y + unit() * 80 - 40) }
                line.append(p)
            }
            let halfWidth = 0.1 + unit() * 3
            let cap: LineCap = [.butt, .round, .square][Int(random.next() % 3)]
            let kept = GridLineOutline.polygons(line, halfWidth: halfWidth, cap: cap, scratch: &scratch)
            let fresh = GridLineOutline.polygons(line, halfWidth: halfWidth, cap: cap)
            let bits = { (o: [[PlanePoint]]) in o.map { $0.flatMap { [$0.x.bitPattern, $0.y.bitPattern] } } }
            #expect(bits(kept) == bits(fresh), "line \(index)")
            polygons += kept.count
        }
        #expect(polygons > 2_000)
    }

    /// Lines outlined into one kept scratch in turn and filled from it (as the painter does)
    /// give the pixels of each line's polygons filled by a new raster: nothing of an earlier
    /// outline is left in the scratch.
    @Test func outlinesFilledFromTheScratchAreThoseFilledAsPolygons() throws {
        var random = Xorshift(state: 0xBB67_AE85_84CA_A73B)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        let (surfaceA, contextA, targetA) = try GridCoverageLevelsTests.whiteCanvas(64)
        let (surfaceB, contextB, targetB) = try GridCoverageLevelsTests.whiteCanvas(64)
        defer { withExtendedLifetime((contextA, contextB)) {} }
        let raster = GridLineRaster()
        let region = Rect(x: 0, y: 0, width: 64, height: 64)
        for _ in 0..<300 {
            var p = PlanePoint(x: unit() * 64, y: unit() * 64)
            var line = [p]
            for _ in 0..<(1 + Int(random.next() % 8)) {
                p = PlanePoint(x: p.x + unit() * 40 - 20, y: p.y + unit() * 40 - 20)
                line.append(p)
            }
            let halfWidth = 0.2 + unit() * 2
            let cap: LineCap = [.butt, .round, .square][Int(random.next() % 3)]
            let color = Color(red: unit(), green: unit(), blue: unit(), alpha: 0.3 + unit() * 0.7)
            GridLineOutline.outline(line, halfWidth: halfWidth, cap: cap, into: &raster.outlineScratch)
            raster.fill(
                raster.outlineScratch.outline, ends: raster.outlineScratch.ends, color: color, region: region,
                target: targetA)
            GridLineRaster().fill(
                GridLineOutline.polygons(line, halfWidth: halfWidth, cap: cap), color: color, region: region,
                target: targetB)
        }
        let a = surfaceA.withPixels { Array($0) }
        let b = surfaceB.withPixels { Array($0) }
        #expect(a == b)
    }
}
