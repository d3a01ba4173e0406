import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Grids
@testable import Sheets

/// What a quadrangle sheet keeps of the document's grid style, and what its notes say of the
/// 100 km squares: those inside its neatline (by GeoConvert), not those of the rectangle
/// around it.
@Suite struct QuadrangleMarksTests {
    static func sheet(_ quad: Quadrangle, grid: String?, paper: String = "A3") throws -> Sheet {
        let map = try Support.map(
            features: [TestMap.point(100, -60)], layers: [#"{"name": "far", "marker": {"size": 1}}"#],
            extra: grid.map { #", "grid": \#($0)"# } ?? "")
        let request = SheetRequest(
            area: .quadrangle(quad), paper: Paper.standard(named: paper)!, dpi: 100,
            grid: grid == nil ? .type(.mgrs) : .document)
        return try Sheet.make(request, renderer: try MapRenderer(map: map))
    }

    /// The document's crosses and ticks reach a quadrangle sheet's grid (the grid's crossings
    /// move to the neatline, its marks stay).
    @Test func marksSurviveTheNeatline() throws {
        let quad = QuadrangleSheetTests.centralPark
        let crosses = try #require(try Self.sheet(quad, grid: #"{"type": "mgrs", "style": "crosses"}"#).grid)
        #expect(crosses.marks.kind == .crosses && !crosses.marks.crosses.isEmpty)
        let ticks = try #require(
            try Self.sheet(quad, grid: #"{"type": "mgrs", "style": "ticks", "tickPosition": "inside", "subTicks": 1}"#)
                .grid)
        #expect(ticks.marks.kind == .ticks && ticks.marks.tickPosition == .inside && !ticks.marks.subTicks.isEmpty)
    }

    /// Distance (mm) from `p` to the ring `ring`.
    static func distance(_ p: PlanePoint, to ring: [PlanePoint]) -> Double {
        var best = Double.infinity
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / max(dx * dx + dy * dy, 1e-18)))
            best = min(best, hypot(p.x - a.x - t * dx, p.y - a.y - t * dy))
        }
        return best
    }

    /// A zebra border on a quadrangle sheet west of its zone's central meridian (the neatline
    /// leans): the inner line runs frameWidth inside the neatline all round, every bar lies
    /// between the two, and both colours are drawn; a line border too.
    @Test func borderFollowsTheNeatline() throws {
        let quad = try Quadrangle(holding: 40.8, longitude: -77.9, size: 0.25)
        for frame in ["zebra", "line"] {
            let sheet = try Self.sheet(quad, grid: #"{"type": "mgrs", "frame": "\#(frame)", "frameWidth": 5}"#)
            let grid = try #require(sheet.grid)
            let neatline = sheet.neatline
            let w = 5 * 25.4 / 72
            let items = grid.marks.frameItems(frame: sheet.transform.frame, crossings: grid)
            var fills: [Color: [PagePolyline]] = [:]
            var outline: [PagePolyline] = []
            for item in items {
                guard case .path(let rings, let stroke, let fill) = item else { continue }
                if let fill { fills[fill, default: []] += rings }
                if stroke != nil { outline += rings }
            }
            try #require(outline.count == 1)
            for p in outline[0].points {
                #expect(abs(Self.distance(p, to: neatline) - w) < 0.01, "\(frame): inner line at \(p)")
                #expect(PolygonMath.contains(neatline, p))
            }
            if frame == "zebra" {
                #expect((fills[.black]?.count ?? 0) > 8 && (fills[.white]?.count ?? 0) > 4)
                for ring in fills.values.joined() {
                    for p in ring.points {
                        #expect(Self.distance(p, to: neatline) < w + 0.01, "a bar strays inside at \(p)")
                        // On the neatline (to a hundredth of a millimetre: the corners' squares
                        // meet the next side's chord) or inside it.
                        let off = Self.distance(p, to: neatline)
                        #expect(off < 0.01 || PolygonMath.contains(neatline, p), "a bar \(off) mm outside at \(p)")
                    }
                }
            } else {
                #expect(fills.isEmpty)
            }
        }
    }

    /// The 100 km squares the notes list, against GeoConvert's MGRS squares of 41 x 41 points
    /// inside the quadrangle, in the sheet's zone. At 63°N, 2.5° west of zone 29's central
    /// meridian, the frame's rectangle around the 1° quadrangle reaches two more squares.
    @Test func squaresListedAreThoseInsideTheNeatline() throws {
        let quad = try Quadrangle(holding: 63.5, longitude: -11.5, size: 1)
        let sheet = try Self.sheet(quad, grid: nil)
        #expect(sheet.plane.zone == 29)
        var positions: [String] = []
        for i in 0...40 {
            for j in 0...40 {
                positions.append(
                    GeoConvert.text(
                        latitude: quad.south + quad.size * Double(j) / 40,
                        longitude: quad.west + quad.size * Double(i) / 40))
            }
        }
        let references = try GeoConvert.run(["-m", "-z", "29n", "-p", "-5"], positions)
        let expected = Set(references.map { String($0.dropFirst(3).prefix(2)) })
        #expect(expected.count >= 2)
        let text = sheet.page.items.compactMap { item -> String? in
            if case .text(let t) = item { return t.string } else { return nil }
        }.joined(separator: " ")
        let pattern = try NSRegularExpression(pattern: "100,000 m squares? ((?:[A-Z]{2}, )*[A-Z]{2})\\.")
        let match = try #require(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        let listed = (text as NSString).substring(with: match.range(at: 1)).components(separatedBy: ", ")
        #expect(Set(listed) == expected, "listed \(listed), GeoConvert \(expected.sorted())")
    }
}
