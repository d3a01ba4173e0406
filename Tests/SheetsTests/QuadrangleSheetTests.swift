import Foundation
import Geodesy
import ImageDiff
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// Quadrangle sheets (`--quad`): the neatline is the quadrangle's meridians and parallels in
/// the UTM zone of its centre, checked against GeographicLib's GeoConvert; the grid's ticks
/// sit on that neatline; the corners are printed at round values; and the whole sheet as
/// printed (the Central Park 7.5' quadrangle) against its golden image.
@Suite struct QuadrangleSheetTests {
    static let centralPark = try! Quadrangle(southEast: -73.875, latitude: 40.75, size: 7.5 / 60)

    /// Quadrangles east and west of their zone's central meridian (the neatline leans one way
    /// and the other), south of the equator, and in Norway's widened zone 32V.
    static let cases: [(quad: Quadrangle, paper: String, zone: String)] = [
        (centralPark, "A3", "18n"),
        (try! Quadrangle(holding: 40.8, longitude: -77.9, size: 0.25), "A3", "18n"),
        (try! Quadrangle(holding: -33.5, longitude: 18.5, size: 1), "A4", "34s"),
        (try! Quadrangle(holding: 60.3, longitude: 5.2, size: 0.5), "A4", "32n"),
    ]

    static func sheet(_ quad: Quadrangle, paper: String, map: LoadedMap? = nil, dpi: Double = 100) throws -> (
        Sheet, MapRenderer
    ) {
        let renderer = try MapRenderer(map: try map ?? Support.blankMap())
        let request = SheetRequest(
            area: .quadrangle(quad), paper: Paper.standard(named: paper)!, dpi: dpi, grid: .type(.mgrs))
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// Millimetres on paper between two positions along a meridian or parallel.
    static func millimetres(degrees: Double, latitude: Double, alongParallel: Bool, scale: Double) -> Double {
        abs(degrees) * 111_320 * (alongParallel ? cos(latitude * .pi / 180) : 1) / scale * 1000
    }

    @Test func quadrangleAndItsCornersFromTheRuling() throws {
        #expect(Self.centralPark.south == 40.75 && Self.centralPark.west == -74 && Self.centralPark.north == 40.875)
        let holding = try Quadrangle(holding: 40.78, longitude: -73.97, size: 7.5 / 60)
        #expect(holding == Self.centralPark)
        // A position on an edge belongs to the quadrangle north and east of it.
        #expect(try Quadrangle(holding: 40.75, longitude: -73.875, size: 7.5 / 60).west == -73.875)
        #expect(throws: SheetError.self) { try Quadrangle(southEast: -73.87, latitude: 40.75, size: 7.5 / 60) }
        #expect(throws: SheetError.self) { try Quadrangle.size(parsing: "7'") }
        #expect(try Quadrangle.size(parsing: "15'") == 0.25)
        #expect(try Quadrangle.size(parsing: "1°") == 1)
    }

    /// The neatline's corners are where GeoConvert puts the quadrangle's corners in the zone
    /// (within 0.1 mm on the page), and its sides, read back through GeoConvert, lie on the
    /// quadrangle's parallels and meridians.
    @Test(arguments: 0..<4)
    func neatlineIsTheGraticuleByGeoConvert(index: Int) throws {
        let c = Self.cases[index]
        let (sheet, _) = try Self.sheet(c.quad, paper: c.paper)
        #expect("UTM \(sheet.plane.zone)\(sheet.plane.isNorth ? "n" : "s")" == "UTM " + c.zone)
        // The frame around the quadrangle may reach over a zone edge (78°W, 18°E); the
        // quadrangle never does, and the notes do not say it does.
        let notes = sheet.page.items.compactMap { item -> String? in
            if case .text(let t) = item { return t.string } else { return nil }
        }.joined(separator: " ")
        #expect(!notes.contains("zone edge"), "\(c.quad.description): \(notes)")
        let corners = QuadrangleFrame.corners(sheet.neatline)
        let geographic = [
            (c.quad.north, c.quad.west), (c.quad.north, c.quad.east), (c.quad.south, c.quad.west),
            (c.quad.south, c.quad.east),
        ]
        for (corner, (lat, lon)) in zip(corners, geographic) {
            let utm = try GeoConvert.utm(latitude: lat, longitude: lon, zone: c.zone)
            let expected = sheet.transform.page(PlanePoint(x: utm.easting, y: utm.northing))
            let error = hypot(corner.x - expected.x, corner.y - expected.y)
            #expect(error < 0.1, "\(c.quad.description): corner \(lat),\(lon) is \(error) mm off GeoConvert's")
        }
        // Every fourth point of the ring, back to latitude and longitude through GeoConvert.
        let sampled = stride(from: 0, to: sheet.neatline.count, by: 4).map { sheet.neatline[$0] }
        let input = sampled.map { p -> String in
            let q = sheet.transform.plane(p)
            return "\(c.zone) \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))"
        }
        let output = try GeoConvert.run(["-g", "-p", "9"], input)
        let n = QuadrangleFrame.steps
        for (k, line) in output.enumerated() {
            let parts = line.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2, "GeoConvert printed '\(line)'")
            let (lat, lon) = (parts[0], parts[1])
            let i = k * 4
            // Clockwise from the north-west corner: north, east, south, west sides.
            let off: Double
            switch i / n {
            case 0:
                off = Self.millimetres(
                    degrees: lat - c.quad.north, latitude: lat, alongParallel: false, scale: sheet.scale)
            case 1:
                off = Self.millimetres(
                    degrees: lon - c.quad.east, latitude: lat, alongParallel: true, scale: sheet.scale)
            case 2:
                off = Self.millimetres(
                    degrees: lat - c.quad.south, latitude: lat, alongParallel: false, scale: sheet.scale)
            default:
                off = Self.millimetres(
                    degrees: lon - c.quad.west, latitude: lat, alongParallel: true, scale: sheet.scale)
            }
            #expect(off < 0.1, "\(c.quad.description): neatline point \(i) (\(lat), \(lon)) is \(off) mm off its side")
        }
    }

    /// The grid's ticks are on the neatline: each crossing, read back through GeoConvert, is
    /// on the quadrangle's parallel (top and bottom) or meridian (left and right), and lies
    /// on its grid line.
    @Test func gridTicksAreOnTheNeatline() throws {
        let c = Self.cases[0]
        let (sheet, _) = try Self.sheet(c.quad, paper: c.paper)
        let grid = try #require(sheet.grid)
        #expect(grid.crossings.count >= 4 * 5)
        let input = grid.crossings.map { crossing -> String in
            let q = sheet.transform.plane(crossing.point)
            return "\(c.zone) \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))"
        }
        let output = try GeoConvert.run(["-g", "-p", "9"], input)
        for (crossing, line) in zip(grid.crossings, output) {
            let parts = line.split(separator: " ").compactMap { Double($0) }
            try #require(parts.count == 2)
            let off: Double
            switch crossing.side {
            case .top:
                off = Self.millimetres(
                    degrees: parts[0] - c.quad.north, latitude: 0, alongParallel: false, scale: sheet.scale)
            case .bottom:
                off = Self.millimetres(
                    degrees: parts[0] - c.quad.south, latitude: 0, alongParallel: false, scale: sheet.scale)
            case .left:
                off = Self.millimetres(
                    degrees: parts[1] - c.quad.west, latitude: parts[0], alongParallel: true, scale: sheet.scale)
            case .right:
                off = Self.millimetres(
                    degrees: parts[1] - c.quad.east, latitude: parts[0], alongParallel: true, scale: sheet.scale)
            }
            #expect(off < 0.1, "a \(crossing.side) crossing at \(parts) is \(off) mm off the neatline")
            let line = grid.lines[crossing.line]
            let q = sheet.transform.plane(crossing.point)
            let along = line.axis == .easting ? q.x : q.y
            #expect(abs(along - line.value) / sheet.transform.metresPerMillimetre < 0.01)
        }
    }

    /// As printed: poppler finds the corners' round values beside the corners, the subtitle
    /// naming the quadrangle, and no frame rectangle's worth of map outside the neatline.
    @Test func cornersAsPrinted() throws {
        let (sheet, renderer) = try Self.sheet(Self.centralPark, paper: "A3")
        #expect(sheet.scale == 50_000 && sheet.layout.paper.height > sheet.layout.paper.width)
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("quad.pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 100, to: pdf)
        let words = try PDFWord.read(pdf)
        let corners = QuadrangleFrame.corners(sheet.neatline)
        // North-west, north-east, south-west, south-east: latitude and longitude of each.
        let expected = [
            ("40°52'30\"N", "74°W"), ("40°52'30\"N", "73°52'30\"W"), ("40°45'N", "74°W"), ("40°45'N", "73°52'30\"W"),
        ]
        for (corner, (lat, lon)) in zip(corners, expected) {
            for text in [lat, lon] {
                let near = words.filter { $0.text == text }.map {
                    hypot($0.centre.x - corner.x, $0.centre.y - corner.y)
                }
                #expect(near.contains { $0 < 10 }, "\(text) is not printed beside the corner \(corner): \(near)")
            }
        }
        let all = words.map(\.text).joined(separator: " ")
        #expect(all.contains("7.5' quadrangle 40°45'N to 40°52'30\"N, 74°W to 73°52'30\"W"))
    }

    @Test func sheetAsPrinted() throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/nyc.json"))
        let (sheet, renderer) = try Self.sheet(Self.centralPark, paper: "A3", map: map)
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("quad.pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 100, to: pdf)
        let image = try Support.rasterise(pdf: pdf, dpi: 100)
        let golden = GoldenCheck(allowedFraction: 0.0005)
        try golden.verify(
            "sheet-quad-central-park", actual: image, expected: "Fixtures/golden/sheet-quad-central-park.png")
    }
}
