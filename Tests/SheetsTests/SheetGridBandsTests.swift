import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// Several grids on a sheet (`"grids": [...]`): MGRS lines with their values next to the
/// neatline and a 1′ latitude/longitude tick grid with its values in a band further out, read
/// back from the PDF by poppler (`pdftotext -bbox`). Every value is where GeoConvert (UTM: the
/// plane's own easting and northing) puts its line along the neatline, no two values overlap,
/// each grid's values stay in their band and in their grid's colour, and the collar holds
/// them all. On a grid-centred sheet and on a quadrangle.
@Suite struct SheetGridBandsTests {
    static let grids =
        #"[{"type": "mgrs"}, {"type": "latlong", "interval": "1'", "style": "ticks", "subTicks": 4}]"#

    static func map() throws -> LoadedMap {
        try Support.map(
            features: [TestMap.point(100, -60)], layers: [#"{"name": "far", "marker": {"size": 1}}"#],
            extra: #", "grids": "# + grids)
    }

    static func sheet(_ area: SheetRequest.Area, scale: Double?, paper: Paper) throws -> (Sheet, MapRenderer) {
        let renderer = try MapRenderer(map: try map())
        var request = SheetRequest(area: area, scale: scale, paper: paper, dpi: 100)
        request.grid = .document
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// `73°58'W` or `40°46'N` (the graticule's D°M′ values) as signed degrees.
    static func degrees(_ text: String) -> Double? {
        let pattern = try! NSRegularExpression(pattern: #"^(\d{1,3})°(?:(\d{1,2})')?(?:(\d{1,2})")?([NSEW])$"#)
        guard let m = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        func group(_ i: Int) -> Double {
            guard let r = Range(m.range(at: i), in: text) else { return 0 }
            return Double(text[r]) ?? 0
        }
        let sign: Double = text.hasSuffix("S") || text.hasSuffix("W") ? -1 : 1
        return sign * (group(1) + group(2) / 60 + group(3) / 3600)
    }

    /// `86` (principal digits: kilometres modulo 100) or `585000mE` (in full) as (metres or
    /// kilometres modulo 100, full).
    static func utmValue(_ text: String) -> (value: Double, full: Bool)? {
        if text.count == 2, let km = Int(text) { return (Double(km), false) }
        guard text.hasSuffix("mE") || text.hasSuffix("mN"), let metres = Double(text.dropLast(2)) else { return nil }
        return (metres, true)
    }

    /// Where a vertical (top, bottom) or horizontal (left, right) line through `c` meets the
    /// neatline ring on `side`.
    static func neatlinePoint(_ ring: [PlanePoint], side: FrameGrid.Side, at c: (x: Double, y: Double)) -> PlanePoint? {
        var hits: [PlanePoint] = []
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            if side == .top || side == .bottom {
                guard (a.x - c.x) * (b.x - c.x) <= 0, a.x != b.x else { continue }
                hits.append(PlanePoint(x: c.x, y: a.y + (b.y - a.y) * (c.x - a.x) / (b.x - a.x)))
            } else {
                guard (a.y - c.y) * (b.y - c.y) <= 0, a.y != b.y else { continue }
                hits.append(PlanePoint(x: a.x + (b.x - a.x) * (c.y - a.y) / (b.y - a.y), y: c.y))
            }
        }
        switch side {
        case .top: return hits.min { $0.y < $1.y }
        case .bottom: return hits.max { $0.y < $1.y }
        case .left: return hits.min { $0.x < $1.x }
        case .right: return hits.max { $0.x < $1.x }
        }
    }

    /// Words printed one after the other on one baseline with no space between them, as the
    /// runs of a UTM value in full (`45`, `12`, `000mN` in three sizes), joined into one.
    static func joined(_ words: [PDFWord]) -> [PDFWord] {
        var result: [PDFWord] = []
        for word in words {
            if var last = result.last, word.box.minX - last.box.maxX < 0.25, word.box.minX > last.box.minX,
                min(word.box.maxY, last.box.maxY) - max(word.box.minY, last.box.minY) > 0.5
            {
                last.text += word.text
                last.box = (
                    last.box.minX, min(last.box.minY, word.box.minY), word.box.maxX, max(last.box.maxY, word.box.maxY)
                )
                result[result.count - 1] = last
            } else {
                result.append(word)
            }
        }
        return result
    }

    static let cases: [(name: String, area: SheetRequest.Area, scale: Double?, paper: Paper)] = [
        (
            "centred", .center(longitude: -73.97, latitude: 40.76), 25_000,
            Paper.standard(named: "A4")!.oriented(.landscape)
        ),
        ("quadrangle", .quadrangle(QuadrangleSheetTests.centralPark), 50_000, Paper.standard(named: "A2")!),
    ]

    @Test(arguments: 0..<2)
    func everyValueInItsBandOnItsLine(index: Int) throws {
        let c = Self.cases[index]
        let (sheet, renderer) = try Self.sheet(c.area, scale: c.scale, paper: c.paper)
        #expect(sheet.grids.map(\.type) == [.mgrs, .latlong], "\(c.name)")
        let frame = sheet.layout.frame
        let border = sheet.layout.border
        let corners = Set(
            sheet.page.items.compactMap { item -> String? in
                guard case .text(let t) = item, t.runs.first?.font.size == FrameGrid.cornerFont.size else { return nil }
                return t.string
            })

        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("bands.pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 100, to: pdf)
        // Each value with the point of the neatline beside it.
        var latlong: [FrameGrid.Side: [(PDFWord, PlanePoint)]] = [:]
        var utm: [FrameGrid.Side: [(PDFWord, PlanePoint)]] = [:]
        var collar: [PDFWord] = []
        var positions: [String] = []
        var checks: [(word: PDFWord, side: FrameGrid.Side, degrees: Double)] = []
        for word in Self.joined(try PDFWord.read(pdf)) where !corners.contains(word.text) {
            let p = word.centre
            // In the collar: not the title above it nor the notes below.
            guard p.y > border.minY, p.y < border.maxY, p.x > border.minX, p.x < border.maxX else { continue }
            let side: FrameGrid.Side
            if p.x < frame.minX, p.y > frame.minY, p.y < frame.maxY {
                side = .left
            } else if p.x > frame.maxX, p.y > frame.minY, p.y < frame.maxY {
                side = .right
            } else if p.y < frame.minY, p.x > frame.minX, p.x < frame.maxX {
                side = .top
            } else if p.y > frame.maxY, p.x > frame.minX, p.x < frame.maxX {
                side = .bottom
            } else {
                continue
            }
            collar.append(word)
            guard let onNeatline = Self.neatlinePoint(sheet.neatline, side: side, at: p) else {
                Issue.record("\(c.name): \(word.text) at \(p) is beside no neatline")
                continue
            }
            let q = sheet.transform.plane(onNeatline)
            if let d = Self.degrees(word.text) {
                latlong[side, default: []].append((word, onNeatline))
                positions.append("18n \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))")
                checks.append((word, side, d))
            } else if let v = Self.utmValue(word.text) {
                utm[side, default: []].append((word, onNeatline))
                // The sheet's plane is UTM 18N: its x and y are the easting and northing.
                let metres = side == .top || side == .bottom ? q.x : q.y
                let km = metres / 1000
                let line = km.rounded()
                if v.full {
                    #expect(abs(v.value - line * 1000) < 0.5, "\(c.name): \(word.text) printed at \(metres) m")
                } else {
                    #expect(
                        Int(line) % 100 == Int(v.value), "\(c.name): \(word.text) printed at \(metres) m on the \(side)"
                    )
                }
                let off = abs(km - line) * 1_000_000 / sheet.scale
                #expect(off < 0.5, "\(c.name): \(word.text) on the \(side) is \(off) mm from its line")
            }
        }
        // Each lat/long value on the meridian or parallel GeoConvert finds where it is printed.
        let references = try GeoConvert.run(["-g", "-p", "9"], positions)
        for (check, line) in zip(checks, references) {
            let parts = line.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2)
            let isLatitude = check.side == .left || check.side == .right
            let off =
                isLatitude
                ? abs(parts[0] - check.degrees) * 111_320 / sheet.scale * 1000
                : abs(parts[1] - check.degrees) * 111_320 * cos(parts[0] * .pi / 180) / sheet.scale * 1000
            #expect(off < 0.5, "\(c.name): \(check.word.text) on the \(check.side) is printed \(off) mm from its line")
        }
        for side in FrameGrid.Side.allCases {
            let inner = utm[side] ?? []
            let outer = latlong[side] ?? []
            #expect(
                inner.count >= 2 && !outer.isEmpty, "\(c.name) \(side): \(inner.count) UTM, \(outer.count) lat/long")
            // The main grid's values next to the neatline, the later grid's further out.
            func distance(_ value: (PDFWord, PlanePoint)) -> (near: Double, far: Double) {
                let (w, n) = value
                switch side {
                case .top: return (n.y - w.box.maxY, n.y - w.box.minY)
                case .bottom: return (w.box.minY - n.y, w.box.maxY - n.y)
                case .left: return (n.x - w.box.maxX, n.x - w.box.minX)
                case .right: return (w.box.minX - n.x, w.box.maxX - n.x)
                }
            }
            let innerFar = inner.map { distance($0).far }.max() ?? 0
            let outerNear = outer.map { distance($0).near }.min() ?? .infinity
            #expect(
                innerFar < outerNear,
                "\(c.name) \(side): UTM values reach \(innerFar) mm, lat/long start at \(outerNear)")
        }
        // No two values overlap, and the collar holds them all.
        for (i, a) in collar.enumerated() {
            #expect(
                a.box.minX >= border.minX && a.box.maxX <= border.maxX && a.box.minY >= border.minY
                    && a.box.maxY <= border.maxY, "\(c.name): \(a.text) leaves the collar")
            for b in collar[(i + 1)...] {
                let overlap =
                    min(a.box.maxX, b.box.maxX) - max(a.box.minX, b.box.minX) > 0.05
                    && min(a.box.maxY, b.box.maxY) - max(a.box.minY, b.box.minY) > 0.05
                #expect(!overlap, "\(c.name): \(a.text) and \(b.text) overlap")
            }
        }
        // Each grid's values in its own colour.
        var colours: [GridType: Set<Color>] = [:]
        for item in sheet.page.items {
            guard case .text(let t) = item, !corners.contains(t.string) else { continue }
            if Self.degrees(t.string) != nil { colours[.latlong, default: []].insert(t.color) }
            if t.runs.contains(where: { $0.font.size == FrameGrid.principalSize }) {
                colours[.mgrs, default: []].insert(t.color)
            }
        }
        #expect(colours[.latlong]?.isDisjoint(with: colours[.mgrs] ?? []) == true, "\(c.name): \(colours)")
    }

    /// A sheet with one grid lays out exactly as before bands existed: the main grid takes no band.
    @Test func oneGridTakesNoBand() throws {
        let (sheet, _) = try SheetGridTests.sheet(SheetGridTests.map(grid: #"{"type": "mgrs"}"#))
        #expect(sheet.grids.count == 1 && sheet.grids[0].band == FrameGrid.BandOffset())
    }

    /// Golden image, looked at before it was committed: Manhattan at 1:25,000 with MGRS lines
    /// and values next to the neatline and a 1′ lat/long tick border with its values outside them.
    @Test func golden() throws {
        try Support.verifyManhattanSheet("sheet-25k-mgrs-latlong-ticks", grids: try Self.map().document.grids)
    }
}
