import DataSources
import Foundation
import Geodesy
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Sheets

/// Sheets drawn in a CRS the user names (`--crs EPSG:27700`), checked against PROJ's own
/// command-line tools (cs2cs, proj), not against our conversions: distances at scale, the
/// graticule, the UTM grid carried into the plane, corner coordinates and convergence.
@Suite struct CRSSheetTests {
    static let london = (longitude: -0.12, latitude: 51.505)

    /// A4 landscape at 300 dpi, drawn in `crs` (nil: the UTM zone), with a grid of `gridCRS`
    /// (with a UTM grid type) when given.
    func sheet(
        crs: String? = "EPSG:27700", at centre: (longitude: Double, latitude: Double) = london, scale: Double,
        grid: SheetRequest.Grid, gridCRS: String? = nil, map: LoadedMap
    ) throws -> (Sheet, MapRenderer) {
        let renderer = try MapRenderer(map: map)
        var request = SheetRequest(
            area: .center(longitude: centre.longitude, latitude: centre.latitude), scale: scale,
            paper: try #require(Paper.standard(named: "A4")).oriented(.landscape), grid: grid)
        request.crs = try crs.map { try ProjectedPlane(crs: $0) }
        request.gridCRS = try gridCRS.map { try ProjectedPlane(crs: $0) }
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// Converts coordinate pairs with cs2cs (`from` and `to` in traditional GIS order:
    /// OGC:CRS84 for longitude/latitude).
    static func cs2cs(_ points: [PlanePoint], from: String, to: String) throws -> [PlanePoint] {
        let input = points.map { "\($0.x) \($0.y)" }.joined(separator: "\n") + "\n"
        let output = try Tool.output("cs2cs", ["-f", "%.10f", from, to], input: input)
        let rows = output.split(separator: "\n").map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        }
        try #require(rows.count == points.count && rows.allSatisfy { $0.count >= 2 }, "cs2cs printed: \(output)")
        return rows.map { PlanePoint(x: $0[0], y: $0[1]) }
    }

    /// The least distance from a point to a polyline (page millimetres).
    static func distance(_ p: PlanePoint, to line: [PlanePoint]) -> Double {
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / max(1e-300, dx * dx + dy * dy)))
            best = min(best, hypot(a.x + t * dx - p.x, a.y + t * dy - p.y))
        }
        return best
    }

    /// Takes each sample's point from `from` to the sheet's CRS `to` with cs2cs and expects
    /// it within 0.01 mm of its line on the page; returns how many fell inside the frame.
    static func checkLines(
        _ sheet: Sheet, _ samples: [(line: FrameGrid.Line, point: PlanePoint)], from: String, to: String
    ) throws -> Int {
        var checked = 0
        for (sample, p) in zip(samples, try cs2cs(samples.map(\.point), from: from, to: to)) {
            let page = sheet.transform.page(p)
            guard sheet.layout.frame.contains(page) else { continue }
            let d = distance(page, to: sample.line.points)
            #expect(d < 0.01, "\(sample.line.axis) \(sample.line.value) misses cs2cs's \(sample.point) by \(d) mm")
            checked += 1
        }
        return checked
    }

    /// Points along each line of a grid: `count + 1` of them, across `y0` to `y0 + dy` for
    /// meridians and eastings, `x0` to `x0 + dx` for parallels and northings.
    static func samples(_ grid: FrameGrid, count: Int, x x0: Double, _ dx: Double, y y0: Double, _ dy: Double)
        -> [(line: FrameGrid.Line, point: PlanePoint)]
    {
        grid.lines.flatMap { line in
            (0...count).map { k in
                let t = Double(k) / Double(count)
                let vertical = line.axis == .easting || line.axis == .longitude
                return (
                    line,
                    vertical ? PlanePoint(x: line.value, y: y0 + dy * t) : PlanePoint(x: x0 + dx * t, y: line.value)
                )
            }
        }
    }

    static func texts(_ sheet: Sheet) -> [String] {
        sheet.page.items.compactMap { item -> String? in
            if case .text(let t) = item { return t.string } else { return nil }
        }
    }

    /// Three red squares cs2cs places at British National Grid (530000, 180000), 1 km east
    /// and 1 km north of it: on the PNG they are 1,000,000 / 25,000 mm apart, square to the
    /// frame (the scale is exact on the CRS's grid, and its grid north is up the sheet).
    @Test func oneKilometreOfTheCRSMeasuresOneKilometreAtScale() throws {
        let grid = [
            PlanePoint(x: 530_000, y: 180_000), PlanePoint(x: 531_000, y: 180_000), PlanePoint(x: 530_000, y: 181_000),
        ]
        let positions = try Self.cs2cs(grid, from: "EPSG:27700", to: "OGC:CRS84")
        let map = try Support.map(
            features: positions.map { TestMap.point($0.x, $0.y) },
            layers: [##"{"name": "marks", "marker": {"shape": "square", "size": 3, "fill": "#ff0000"}}"##])
        let (sheet, renderer) = try sheet(scale: 25_000, grid: .none, map: map)
        let image = try PageWriter.renderImage(sheet.page, renderer: renderer, dpi: sheet.layout.dpi)
        let marks = Support.redMarks(image, in: sheet.layout.frame, dpi: sheet.layout.dpi)
        try #require(marks.count == 3, "marks: \(marks)")
        // West to east, then the northern one of the two western marks first.
        let sorted = marks.sorted { $0.x < $1.x }
        let east = sorted[2]
        let (north, origin) = sorted[0].y < sorted[1].y ? (sorted[0], sorted[1]) : (sorted[1], sorted[0])
        let kilometre = sheet.layout.dpi / 25.4 * 1_000_000 / 25_000
        #expect(abs(east.x - origin.x - kilometre) < 0.5, "east: \(east.x - origin.x) px, expected \(kilometre)")
        #expect(abs(east.y - origin.y) < 0.5, "east mark is \(east.y - origin.y) px off the row")
        #expect(abs(origin.y - north.y - kilometre) < 0.5, "north: \(origin.y - north.y) px, expected \(kilometre)")
        #expect(abs(north.x - origin.x) < 0.5, "north mark is \(north.x - origin.x) px off the column")
        // Where the mark is on the page: the frame transform puts BNG metres there.
        let page = sheet.transform.page(grid[0])
        let px = sheet.layout.dpi / 25.4
        #expect(abs(page.x * px - origin.x) < 0.5 && abs(page.y * px - origin.y) < 0.5)
    }

    /// The meridians and parallels of a latitude/longitude grid on a BNG sheet pass, within
    /// 0.01 mm on paper, through the points cs2cs puts them at.
    @Test func graticuleLinesAreWhereCs2csPutsThem() throws {
        let (sheet, _) = try sheet(scale: 25_000, grid: .type(.latlong), map: Support.blankMap())
        let grid = try #require(sheet.grid)
        let samples = Self.samples(grid, count: 20, x: -0.17, 0.1, y: 51.48, 0.05)
        let meridians = grid.lines.filter { $0.axis == .longitude }.count
        let parallels = grid.lines.filter { $0.axis == .latitude }.count
        #expect(meridians >= 3 && parallels >= 2, "\(meridians) meridians, \(parallels) parallels")
        let checked = try Self.checkLines(sheet, samples, from: "OGC:CRS84", to: "EPSG:27700")
        #expect(checked >= 20)
    }

    /// On a BNG sheet the UTM grid is zone 30's (the zone of the centre), drawn through our
    /// transverse Mercator and carried into the plane: cs2cs, from EPSG:32630 straight to
    /// EPSG:27700, puts its lines where they are drawn, within 0.01 mm.
    @Test func utmLinesAreCarriedIntoTheCRSPlane() throws {
        let (sheet, _) = try sheet(scale: 25_000, grid: .type(.utm), map: Support.blankMap())
        #expect(sheet.plane.zone == 30)
        let grid = try #require(sheet.grid)
        let samples = Self.samples(grid, count: 20, x: 693_000, 20_000, y: 5_703_000, 12_000)
        #expect(grid.lines.count >= 8)
        let checked = try Self.checkLines(sheet, samples, from: "EPSG:32630", to: "EPSG:27700")
        #expect(checked >= 20)
    }

    /// The corners' longitudes and latitudes printed in the collar are cs2cs's for the
    /// frame's corners in BNG metres; the notes name the CRS and its datum; the north arrow's
    /// convergence is `proj -V`'s for the CRS's projection at the centre.
    @Test func cornersNotesAndConvergenceAreTheCRSs() throws {
        let (sheet, _) = try sheet(scale: 25_000, grid: .type(.latlong), map: Support.blankMap())
        let e = sheet.transform.extent
        let corners = [
            PlanePoint(x: e.minX, y: e.maxY), PlanePoint(x: e.maxX, y: e.maxY), PlanePoint(x: e.minX, y: e.minY),
            PlanePoint(x: e.maxX, y: e.minY),
        ]
        let texts = Self.texts(sheet)
        for g in try Self.cs2cs(corners, from: "EPSG:27700", to: "OGC:CRS84") {
            let latitude = AngleFormat.dms(g.y, kind: .latitude, trailing: .second, style: .compact)
            let longitude = AngleFormat.dms(g.x, kind: .longitude, trailing: .second, style: .compact)
            #expect(texts.contains(latitude) && texts.contains(longitude), "\(latitude) \(longitude) not printed")
        }
        let printed = texts.joined(separator: " ")
        #expect(printed.contains("OSGB36 / British National Grid (EPSG:27700), Transverse Mercator"), "\(printed)")
        #expect(printed.contains("datum Ordnance Survey of Great Britain 1936"))
        #expect(printed.contains("Scale on the grid of EPSG:27700"))

        // proj -V on the CRS's own projection (its geographic coordinates are OSGB36's, a
        // hundred metres from WGS84's: a change of convergence under 0.0001°).
        let definition = try Tool.output("projinfo", ["-o", "PROJ", "-q", "EPSG:27700"])
            .split(whereSeparator: \.isWhitespace).map(String.init).filter { $0 != "+type=crs" }
        let centre = sheet.plane.unproject(e.center)
        let report = try Tool.output("proj", ["-V"] + definition, input: "\(centre.longitude) \(centre.latitude)\n")
        let line = try #require(report.split(separator: "\n").first { $0.hasPrefix("Convergence") })
        let reference = try #require(
            line.split(separator: "[").last.flatMap { Double($0.dropLast().trimmingCharacters(in: .whitespaces)) })
        #expect(
            abs(centre.convergence - reference) < 0.001, "convergence \(centre.convergence)°, proj -V \(reference)°")
        #expect(centre.convergence > 1.4, "London is 1.9° east of the central meridian 2°W")
    }

    /// A State Plane CRS counted in US survey feet: the sheet's scale holds in metres (a
    /// 1,000 ft step measures 304.8006 m at scale).
    @Test func aCRSInFeetKeepsTheScaleInMetres() throws {
        let (sheet, _) = try sheet(
            crs: "EPSG:2263", at: (-73.97, 40.76), scale: 25_000, grid: .none, map: Support.blankMap())
        let a = try Self.cs2cs(
            [PlanePoint(x: 990_000, y: 215_000), PlanePoint(x: 991_000, y: 215_000)], from: "EPSG:2263", to: "OGC:CRS84"
        )
        let p = a.map { sheet.transform.page(sheet.plane.project(latitude: $0.y, longitude: $0.x)) }
        let expected = 1000.0 * 1200 / 3937 * 1000 / 25_000
        #expect(abs(p[1].x - p[0].x - expected) < 0.001, "\(p[1].x - p[0].x) mm, expected \(expected)")
    }

    /// A British National Grid drawn on a UTM sheet (Grids walks the CRS's lines through the
    /// `GridCRS` protocol, densified in the sheet's plane): cs2cs, from EPSG:27700 straight to
    /// the sheet's zone EPSG:32630, puts the lines where they are drawn, within 0.01 mm.
    @Test func aBNGGridOnAUTMSheetIsWhereCs2csPutsIt() throws {
        let (sheet, _) = try sheet(
            crs: nil, scale: 50_000, grid: .type(.utm), gridCRS: "EPSG:27700", map: Support.blankMap())
        #expect(sheet.plane.identifier == "UTM 30N")
        let grid = try #require(sheet.grid)
        #expect(grid.crs == "OSGB36 / British National Grid (EPSG:27700)")
        let samples = Self.samples(grid, count: 30, x: 510_000, 40_000, y: 165_000, 30_000)
        #expect(grid.lines.contains { $0.axis == .easting && $0.value == 530_000 })
        let checked = try Self.checkLines(sheet, samples, from: "EPSG:27700", to: "EPSG:32630")
        #expect(checked >= 40)
    }

    /// On a sheet in its own CRS the grid's lines are straight and square to the frame at
    /// round coordinates, labelled in metres, and the notes name the grid.
    @Test func aCRSGridOnItsOwnSheetIsSquareToTheFrame() throws {
        let (sheet, _) = try sheet(scale: 25_000, grid: .type(.utm), gridCRS: "EPSG:27700", map: Support.blankMap())
        let grid = try #require(sheet.grid)
        #expect(grid.interval == 1000)
        for line in grid.lines {
            let value =
                line.axis == .easting
                ? sheet.transform.page(PlanePoint(x: line.value, y: 0)).x
                : sheet.transform.page(PlanePoint(x: 0, y: line.value)).y
            for p in line.points {
                #expect(abs((line.axis == .easting ? p.x : p.y) - value) < 1e-4, "\(line.axis) \(line.value) bends")
            }
        }
        let texts = Self.texts(sheet)
        #expect(
            texts.joined(separator: " ").contains(
                "Grid: OSGB36 / British National Grid (EPSG:27700), 1,000 m; values in metres."))
        let collar = sheet.page.items.compactMap { item -> PageText? in
            if case .text(let t) = item { return t } else { return nil }
        }.map(\.string)
        #expect(collar.contains { $0.hasPrefix("5") && $0.hasSuffix("mE") }, "no easting printed in full: \(collar)")
    }

    /// England at 1:2,500,000 in the British National Grid with its own 100 km grid (centred
    /// on its central meridian, 2°W: the two norths agree), and Manhattan at 1:25,000 in the
    /// Long Island State Plane (EPSG:2263) with its grid, as printed (poppler's pixels).
    @Test(arguments: ["sheet-bng-england", "sheet-stateplane-nyc"])
    func sheetInACRSAsPrinted(name: String) throws {
        let england = name == "sheet-bng-england"
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let path: String
        if england {
            // The world map's countries and capitals, without its reference scale.
            path = directory.appendingPathComponent("england.json").path
            try """
            {"name": "England and Wales", "attribution": "Natural Earth (public domain)", "background": "#b5d0d0",
             "fonts": ["\(Repository.fixture("fonts"))"], "systemFonts": false, "layers": [
              {"name": "countries", "source": "\(Repository.fixture("data/countries.geojson"))",
               "fill": {"color": "#f2efe9", "outline": {"color": "#7a6a8a", "width": 0.8}}},
              {"name": "capitals", "source": "\(Repository.fixture("data/cities.geojson"))",
               "marker": {"shape": "circle", "size": 5, "fill": "#d62728", "outline": {"color": "#ffffff", "width": 1}},
               "label": {"attribute": "name", "font": "DejaVu Sans", "size": 9, "color": "#222222",
                         "halo": {"color": "#ffffff", "width": 1.5}, "offset": [0, -6]}}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            path = Repository.fixture("maps/nyc.json")
        }
        let crs = england ? "EPSG:27700" : "EPSG:2263"
        let (sheet, renderer) = try sheet(
            crs: crs, at: england ? (-2.0, 52.8) : (-73.97, 40.76), scale: england ? 2_500_000 : 25_000,
            grid: .type(.utm), gridCRS: crs, map: try LoadedMap.load(path: path))
        let pdf = directory.appendingPathComponent("\(name).pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 300, to: pdf)
        let image = try Support.rasterise(pdf: pdf, dpi: 100)
        let golden = GoldenCheck(allowedFraction: 0.0005)
        try golden.verify(name, actual: image, expected: "Fixtures/golden/\(name).png")
    }

    @Test func aGeographicCRSIsRefused() throws {
        #expect(throws: SheetError.self) {
            try sheet(crs: "EPSG:4326", scale: 25_000, grid: .none, map: Support.blankMap())
        }
    }
}
