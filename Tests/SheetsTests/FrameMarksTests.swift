import Foundation
import Geodesy
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Sheets

/// A sheet's grid styles: zebra bars that change colour on the graticule's meridians and
/// parallels (GeoConvert reads the line's value where a bar ends), in the printed pixels too;
/// crosses on their eastings and northings; ticks only; sub-ticks; the document's interval.
@Suite struct FrameMarksTests {
    static func sheet(_ grid: String, scale: Double = 25_000) throws -> (Sheet, MapRenderer) {
        try SheetGridTests.sheet(SheetGridTests.map(grid: grid), scale: scale)
    }

    /// Zebra bars of the 30" graticule of a 1:25,000 sheet: along each side, bars meet exactly at the
    /// crossings of the side's lines (meridians top and bottom, parallels left and right) and
    /// alternate colour; GeoConvert puts every such crossing on its line's value.
    @Test func zebraBarsChangeOnTheLines() throws {
        let (sheet, _) = try Self.sheet(#"{"type": "latlong", "frame": "zebra", "frameWidth": 4}"#)
        let grid = try #require(sheet.grid)
        let frame = sheet.layout.frame
        #expect(grid.marks.frame == .zebra && abs(grid.marks.frameWidth - 4 * 25.4 / 72) < 1e-12)
        var checked: [(FrameGrid.Crossing, PlanePoint)] = []
        for side in FrameGrid.Side.allCases {
            let bars = grid.marks.zebraBars(side, frame: frame, grid: grid)
            let horizontal = side == .top || side == .bottom
            let crossings = grid.crossings.filter { c in
                let axis = grid.lines[c.line].axis
                return c.side == side && (horizontal ? axis == .longitude : axis == .latitude)
            }
            #expect(crossings.count >= 2, "\(side): \(crossings.count) lines")
            #expect(bars.count == crossings.count + 1, "\(side): \(bars.count) bars for \(crossings.count) lines")
            for (a, b) in zip(bars, bars.dropFirst()) {
                #expect(a.black != b.black, "\(side): two bars of one colour meet")
                let end = horizontal ? a.rect.maxX : a.rect.maxY
                let c = try #require(crossings.first { abs((horizontal ? $0.point.x : $0.point.y) - end) < 1e-9 })
                checked.append((c, sheet.transform.plane(c.point)))
            }
        }
        let converted = try GeoConvert.run(
            ["-g", "-p", "9"], checked.map { "18n \($0.1.x) \($0.1.y)" })
        for ((c, _), text) in zip(checked, converted) {
            let parts = text.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2)
            let line = grid.lines[c.line]
            let got = line.axis == .longitude ? parts[1] : parts[0]
            #expect(abs(got - line.value) < 1e-5, "a bar ends at \(got)°, not on \(line.value)°")
            // 30" lines.
            #expect(abs(line.value * 120 - (line.value * 120).rounded()) < 1e-9)
        }
    }

    /// In the printed pixels the top bar changes from black to white within a pixel of each
    /// meridian's crossing.
    @Test func zebraPixelsChangeAtTheMeridians() throws {
        let (sheet, renderer) = try Self.sheet(#"{"type": "latlong", "frame": "zebra", "frameWidth": 4}"#)
        let grid = try #require(sheet.grid)
        let image = try PageWriter.renderImage(sheet.page, renderer: renderer, dpi: sheet.layout.dpi)
        let px = sheet.layout.dpi / 25.4
        let f = sheet.layout.frame
        let w = grid.marks.frameWidth
        let row = Int(((f.minY + w / 2) * px).rounded())
        var changes: [Double] = []
        var last = image.darkness(Int((f.minX + w) * px) + 2, row) > 0.5
        for x in (Int((f.minX + w) * px) + 2)..<(Int((f.maxX - w) * px) - 2) {
            let dark = image.darkness(x, row) > 0.5
            if dark != last { changes.append(Double(x) / px) }
            last = dark
        }
        let meridians = grid.crossings.filter { $0.side == .top && grid.lines[$0.line].axis == .longitude }
            .map(\.point.x).filter { $0 > f.minX + w + 0.5 && $0 < f.maxX - w - 0.5 }
        #expect(changes.count == meridians.count, "\(changes.count) changes of colour for \(meridians.count) meridians")
        for (change, meridian) in zip(changes, meridians.sorted()) {
            #expect(
                abs(change - meridian) < 1.5 / px, "the bar changes at \(change) mm, the meridian is at \(meridian)")
        }
    }

    /// Crosses on a UTM sheet: each cross's centre is the page position of its easting and
    /// northing (straight lines in the sheet's own zone), and nothing else of the lines is drawn.
    @Test func crossesSitOnTheirEastingsAndNorthings() throws {
        let (sheet, _) = try Self.sheet(#"{"type": "utm", "style": "crosses", "crossLength": 10}"#)
        let grid = try #require(sheet.grid)
        let arms = grid.marks.crosses
        #expect(arms.count >= 2 * 9)
        let half = 5 * 25.4 / 72
        // Arms are cut where the lines end, a little outside the frame (where they are clipped).
        let inner = sheet.layout.frame.expanded(by: -half)
        for pair in stride(from: 0, to: arms.count, by: 2).map({ (arms[$0], arms[$0 + 1]) })
        where inner.contains(pair.0.points[pair.0.points.count / 2]) {
            let (e, n) = pair.0.axis == .easting ? pair : (pair.1, pair.0)
            #expect(e.axis == .easting && n.axis == .northing)
            let expected = sheet.transform.page(PlanePoint(x: e.value, y: n.value))
            for arm in [e, n] {
                let middle = arm.points[arm.points.count / 2]
                #expect(WebMercatorFormula.distance(middle, expected) < 1e-6, "a cross of \(e.value) \(n.value)")
                let ends = (arm.points.first!, arm.points.last!)
                #expect(abs(WebMercatorFormula.distance(ends.0, ends.1) - 2 * half) < 1e-6)
            }
        }
    }

    /// With ticks only, the frame's inside is blank beyond the ticks; with lines it is not.
    /// Sub-ticks divide each 30" interval into five, at half the tick's length.
    @Test func ticksOnlyAndSubTicks() throws {
        func inkInside(_ grid: String) throws -> (Int, Sheet) {
            let (sheet, renderer) = try Self.sheet(grid)
            let image = try PageWriter.renderImage(sheet.page, renderer: renderer, dpi: sheet.layout.dpi)
            let px = sheet.layout.dpi / 25.4
            let f = sheet.layout.frame.expanded(by: -4)
            var ink = 0
            for y in Int(f.minY * px)..<Int(f.maxY * px) {
                for x in Int(f.minX * px)..<Int(f.maxX * px) where image.darkness(x, y) > 0.2 { ink += 1 }
            }
            return (ink, sheet)
        }
        let (lines, _) = try inkInside(#"{"type": "latlong"}"#)
        let (ticks, sheet) = try inkInside(
            #"{"type": "latlong", "style": "ticks", "tickPosition": "inside", "subTicks": 4}"#)
        #expect(lines > 1000 && ticks == 0, "ink inside the frame: \(lines) with lines, \(ticks) with ticks")
        let grid = try #require(sheet.grid)
        #expect(grid.marks.tickPosition == .inside)
        let top = grid.crossings.filter { $0.side == .top && grid.lines[$0.line].axis == .longitude }.map(\.point.x)
            .sorted()
        let subs = grid.marks.subTicks.filter { $0.side == .top }.map(\.point.x).sorted()
        for (a, b) in zip(top, top.dropFirst()) {
            let between = subs.filter { $0 > a && $0 < b }
            #expect(between.count == 4, "\(between.count) sub-ticks between two meridians")
            // Meridians are nearly straight and upright on a 1:25,000 UTM sheet: the sub-ticks
            // divide the gap into five nearly equal parts.
            for (i, s) in between.enumerated() {
                #expect(abs(s - (a + (b - a) * Double(i + 1) / 5)) < 0.01)
            }
        }
    }

    /// The document's interval on a sheet: a 2 km grid offset 1 km east at 1:50,000; too fine
    /// to print (100 m at 1:250,000 is 0.4 mm), the sheet's own interval stands in.
    @Test func theDocumentsIntervalIsPrinted() throws {
        let (sheet, _) = try Self.sheet(#"{"type": "utm", "interval": 2000, "offset": [1000, 0]}"#, scale: 50_000)
        let grid = try #require(sheet.grid)
        #expect(grid.interval == 2000)
        let eastings = grid.lines.filter { $0.axis == .easting }.map(\.value)
        let northings = grid.lines.filter { $0.axis == .northing }.map(\.value)
        // The frame is about 12.5 km by 7.5 km on the ground.
        #expect(eastings.count >= 5 && northings.count >= 3)
        for e in eastings { #expect((e - 1000).truncatingRemainder(dividingBy: 2000) == 0, "easting \(e)") }
        for n in northings { #expect(n.truncatingRemainder(dividingBy: 2000) == 0, "northing \(n)") }
        let (coarse, _) = try Self.sheet(#"{"type": "utm", "interval": 100}"#, scale: 250_000)
        #expect(coarse.grid?.interval == 10_000)
    }

    /// Golden sheets of Manhattan, looked at before they were committed: at 1:25,000 a
    /// latitude/longitude grid with a zebra frame, 30" lines as crosses and four sub-ticks
    /// between them; at 1:50,000 a 2 km UTM grid offset 1 km east, drawn as ticks inside the
    /// neatline past a line frame, with one sub-tick between them.
    @Test(arguments: ["sheet-25k-latlong-zebra", "sheet-50k-utm-ticks"])
    func golden(name: String) throws {
        var settings = GridSettings(type: name.contains("utm") ? .utm : .latlong)
        if settings.type == .latlong {
            settings.marks.kind = .crosses
            settings.marks.crossLength = 12
            settings.marks.frame = .zebra
            settings.marks.subTicks = 4
        } else {
            settings.interval = GridInterval(x: 2000, y: 2000, offsetX: 1000)
            settings.marks.kind = .ticks
            settings.marks.tickLength = 8
            settings.marks.frame = .line
            settings.marks.subTicks = 1
        }
        try Support.verifyManhattanSheet(name, grids: [settings], scale: settings.type == .utm ? 50_000 : 25_000)
    }
}
