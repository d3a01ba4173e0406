import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

@Suite struct PaperTests {
    @Test func namedSizesAreISOAndNorthAmerican() throws {
        let expected: [String: (Double, Double)] = [
            "A4": (210, 297), "A3": (297, 420), "A2": (420, 594), "A1": (594, 841), "A0": (841, 1189),
            "letter": (215.9, 279.4), "legal": (215.9, 355.6), "tabloid": (279.4, 431.8),
        ]
        for (name, size) in expected {
            let paper = try #require(Paper.standard(named: name.uppercased()))
            #expect(paper.width == size.0 && paper.height == size.1, "\(name)")
            let landscape = paper.oriented(.landscape)
            #expect(landscape.width == size.1 && landscape.height == size.0)
            #expect(landscape.oriented(.portrait) == paper)
        }
    }

    @Test func customSizes() throws {
        let paper = try Paper.custom(width: 420, height: 297)
        #expect(paper.width == 420 && paper.height == 297 && !paper.isNamed)
        #expect(paper.description == "420x297mm landscape (420 x 297 mm)")
        // Millimetres print with one decimal, ties rounded as printf rounds them (to even).
        #expect(try Paper.custom(width: 100.26, height: 150).name == "100.3x150mm")
        #expect(try Paper.custom(width: 100.25, height: 150).name == "100.2x150mm")
    }

    @Test func sizesThatAreNotOne() {
        #expect(Paper.standard(named: "B7") == nil)
        for (width, height) in [(0.0, 297.0), (-210, 297), (.nan, 100), (9000, 100), (100, .infinity)] {
            #expect(throws: SheetError.paperSizeOutOfRange(width: width, height: height, maxSide: 5000)) {
                try Paper.custom(width: width, height: height)
            }
        }
    }
}

@Suite struct ScaleTextTests {
    @Test func ratiosAndDistances() {
        #expect(ScaleText.ratio(50_000) == "1:50,000")
        #expect(ScaleText.ratio(250_000) == "1:250,000")
        #expect(ScaleText.ratio(1_000_000) == "1:1,000,000")
        #expect(ScaleText.ratio(500) == "1:500")
        #expect(ScaleText.ratio(12_500.5) == "1:12,500.5")
        #expect(ScaleText.distance(500) == "500 m")
        #expect(ScaleText.distance(2500) == "2.5 km")
    }

    /// The largest round scale that fits: the smallest of 1, 2, 2.5, 5 x 10^k at or above.
    @Test func roundScales() {
        #expect(RoundScale.atLeast(25_000) == 25_000)
        #expect(RoundScale.atLeast(25_000.0001) == 50_000)
        #expect(RoundScale.atLeast(21_000) == 25_000)
        #expect(RoundScale.atLeast(100_001) == 200_000)
        #expect(RoundScale.atLeast(3) == 5)
        #expect(RoundScale.atLeast(0.7) == 1)
    }

    @Test func scaleBars() {
        // 1:25,000 in 80 mm: 500 m segments (20 mm), three right of the zero and one
        // cut into five to its left.
        let bar = ScaleBar(scale: 25_000, width: 80)
        #expect(bar.segment == 500 && bar.count == 3 && bar.subdivisions == 5)
        #expect(abs(bar.segmentLength - 20) < 1e-9)
        #expect(!bar.inKilometres && bar.label(at: -1) == "500" && bar.label(at: 3) == "1500")
        // 1:250,000 in 100 mm: 5 km segments (20 mm), four of them: 5 0 5 10 15 20 km.
        let small = ScaleBar(scale: 250_000, width: 100)
        #expect(small.segment == 5000 && small.count == 4 && small.inKilometres && small.label(at: 4) == "20")
        // 1:50,000 in 100 mm: 1 km segments (20 mm) with ten 100 m subdivisions.
        let topo = ScaleBar(scale: 50_000, width: 100)
        #expect(topo.segment == 1000 && topo.count == 4 && topo.subdivisions == 10)
        // One inch to the mile (1:63,360): 1 statute mile segments 25.4 mm long, four in 110 mm.
        let miles = ScaleBar(scale: 63_360, width: 110, unit: .statuteMiles)
        #expect(miles.segment == 1609.344 && abs(miles.segmentLength - 25.4) < 1e-9 && miles.count == 3)
        #expect(miles.label(at: 3) == "3" && miles.label(at: -1) == "1" && miles.unitName == "statute miles")
        // One inch to the nautical mile (1:72,913.4): 25.4 mm segments, half a mile at half the width.
        let nautical = ScaleBar(scale: 1852 / 0.0254, width: 110, unit: .nauticalMiles)
        #expect(nautical.segment == 1852 && abs(nautical.segmentLength - 25.4) < 1e-9)
        let half = ScaleBar(scale: 1852 / 0.0254, width: 55, unit: .nauticalMiles)
        #expect(half.segment == 926 && half.label(at: 2) == "1" && half.label(at: 1) == "0.5")
    }
}

@Suite struct SheetLayoutTests {
    @Test func theFrameIsWholePixelsInsideTheMargins() throws {
        let layout = try SheetLayout(
            paper: Paper.standard(named: "A3")!.oriented(.landscape), margins: 10, dpi: 300, labelWidth: 14,
            labelHeight: 3.5)
        let perPixel = 25.4 / 300
        #expect(abs(layout.frame.width - Double(layout.pixelWidth) * perPixel) < 1e-9)
        #expect(abs((layout.frame.minX / perPixel).rounded() - layout.frame.minX / perPixel) < 1e-9)
        #expect(abs((layout.frame.minY / perPixel).rounded() - layout.frame.minY / perPixel) < 1e-9)
        #expect(layout.content.contains(layout.border) && layout.border.contains(layout.frame))
        #expect(!layout.border.intersects(layout.titleBand) && !layout.border.intersects(layout.notes))
        #expect(!layout.notes.intersects(layout.scaleBox) && !layout.scaleBox.intersects(layout.northBox))
        #expect(layout.northBox.maxX <= layout.content.maxX + 1e-9)
    }

    @Test func marginsLargerThanThePage() {
        #expect(throws: SheetError.marginsTooLarge(margins: 150, paperWidth: 210, paperHeight: 297)) {
            try SheetLayout(
                paper: Paper.standard(named: "A4")!, margins: 150, dpi: 300, labelWidth: 14, labelHeight: 3.5)
        }
        // Margins that leave the page but no room for a map.
        #expect(throws: SheetError.self) {
            try SheetLayout(
                paper: Paper.standard(named: "A4")!.oriented(.landscape), margins: 80, dpi: 300, labelWidth: 14,
                labelHeight: 3.5)
        }
    }
}

@Suite struct FrameGridTests {
    @Test func principalDigits() {
        func text(_ runs: [PageTextRun]) -> [String] { runs.map(\.text) }
        #expect(
            text(FrameGrid.label(axis: .northing, value: 4_512_000, interval: 1000, full: true)) == [
                "45", "12", "000mN",
            ])
        #expect(text(FrameGrid.label(axis: .northing, value: 4_512_000, interval: 1000, full: false)) == ["12"])
        #expect(
            text(FrameGrid.label(axis: .easting, value: 583_000, interval: 1000, full: true)) == ["5", "83", "000mE"])
        // On coarser grids the principal digits end at the interval's place, so they differ
        // from line to line: hundreds and tens of kilometres on a 10 km grid, thousands and
        // hundreds on a 100 km grid.
        #expect(text(FrameGrid.label(axis: .easting, value: 590_000, interval: 10_000, full: false)) == ["59"])
        #expect(
            text(FrameGrid.label(axis: .northing, value: 5_100_000, interval: 100_000, full: true))
                == [
                    "", "51", "00000mN",
                ].filter { !$0.isEmpty })
        #expect(
            text(FrameGrid.label(axis: .easting, value: 586_300, interval: 100, full: true)) == ["5", "863", "00mE"])
        #expect(text(FrameGrid.label(axis: .easting, value: 86_000, interval: 1000, full: true)) == ["86", "000mE"])
        // The large digits are the bigger font.
        let runs = FrameGrid.label(axis: .northing, value: 4_512_000, interval: 1000, full: true)
        #expect(runs[1].font.size > runs[0].font.size && runs[1].font.size > runs[2].font.size)
        #expect(
            text(FrameGrid.label(axis: .longitude, value: -73.975, interval: 30 / 3600.0, full: false)) == [
                "73°58'30\"W"
            ])
        #expect(text(FrameGrid.label(axis: .latitude, value: 40.75, interval: 1 / 60.0, full: false)) == ["40°45'N"])
    }

    @Test func intervalsKeepLinesApartOnPaper() {
        #expect(FrameGrid.utmInterval(metresPerMillimetre: 25) == 1000)  // 1:25,000: 40 mm
        #expect(FrameGrid.utmInterval(metresPerMillimetre: 50) == 1000)  // 1:50,000: 20 mm
        #expect(FrameGrid.utmInterval(metresPerMillimetre: 250) == 10_000)  // 1:250,000: 40 mm
        #expect(FrameGrid.utmInterval(metresPerMillimetre: 10) == 100)  // 1:10,000: 10 mm
        // Graticule at 40°N: 30" at 1:25,000, 5' at 1:250,000.
        #expect(FrameGrid.graticuleInterval(metresPerMillimetre: 25, highestLatitude: 40.8) == 30)
        #expect(FrameGrid.graticuleInterval(metresPerMillimetre: 250, highestLatitude: 40.8) == 300)
    }

    /// Meridians and parallels on a UTM sheet: every vertex lies on its value, checked by
    /// taking the page point back to the plane and to longitude/latitude with GeoConvert.
    @Test func graticuleLinesLieOnTheirValues() throws {
        let plane = UTMPlane(zone: 18, isNorth: true)
        let frame = Rect(x: 20, y: 30, width: 200, height: 150)
        let centre = plane.project(latitude: 40.76, longitude: -73.97)
        let halfW = 100.0 * 25
        let halfH = 75.0 * 25  // 1:25,000
        let transform = FrameTransform(
            frame: frame,
            extent: Rect(minX: centre.x - halfW, minY: centre.y - halfH, maxX: centre.x + halfW, maxY: centre.y + halfH)
        )
        let grid = try #require(try FrameGrid.make(type: .latlong, plane: plane, transform: transform))
        #expect(grid.interval == 30 / 3600.0)
        #expect(grid.lines.contains { $0.axis == .longitude } && grid.lines.contains { $0.axis == .latitude })
        var input = ""
        var expected: [(axis: FrameGrid.Axis, value: Double)] = []
        for line in grid.lines {
            for p in stride(from: 0, to: line.points.count, by: 16).map({ line.points[$0] }) {
                let q = transform.plane(p)
                input += "18n \(String(format: "%.4f", q.x)) \(String(format: "%.4f", q.y))\n"
                expected.append((line.axis, line.value))
            }
        }
        let output = try Tool.output("GeoConvert", ["-g", "-p", "6"], input: input).split(separator: "\n")
        try #require(output.count == expected.count)
        for (line, want) in zip(output, expected) {
            let v = line.split(separator: " ").compactMap { Double($0) }
            let got = want.axis == .longitude ? v[1] : v[0]
            // 1e-7 degrees is 1 cm: far below a printed dot.
            #expect(abs(got - want.value) < 1e-7, "\(want.axis) \(want.value): \(line)")
        }
        // Crossings: the meridians meet the top and bottom edges, the parallels the sides.
        for c in grid.crossings {
            let axis = grid.lines[c.line].axis
            #expect(c.side == .top || c.side == .bottom ? axis == .longitude : axis == .latitude)
        }
    }
}

@Suite struct UTMPlaneTests {
    /// Web Mercator metres of a position into the sheet's plane agree with GeoConvert's UTM
    /// (zone forced, as a sheet straddling a zone edge needs) to a millimetre.
    @Test func planeCoordinatesAreGeoConvertsUTM() throws {
        let positions = [(40.76, -73.97), (40.0, -78.5), (40.0, -71.2), (-33.9, 151.2), (69.7, 18.9), (0.1, -75)]
        for (lat, lon) in positions {
            let plane = try UTMPlane(containing: lat, longitude: lon)
            let x = WebMercatorReference.x(lon)
            let y = WebMercatorReference.y(lat)
            let p = plane.forward(PlanePoint(x: x, y: y))
            let zone = "\(plane.zone)\(plane.isNorth ? "n" : "s")"
            let reference = try GeoConvert.utm(latitude: lat, longitude: lon, zone: zone)
            #expect(
                abs(p.x - reference.easting) < 0.001 && abs(p.y - reference.northing) < 0.001,
                "\(lat) \(lon): \(p) vs \(reference)")
            let back = plane.inverse(p)
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
        }
        // A sheet centred beside Norway is drawn in zone 32, as MGRS has it.
        #expect(try UTMPlane(containing: 60, longitude: 4).zone == 32)
        #expect(throws: SheetError.outsideUTM(latitude: 85)) { try UTMPlane(containing: 85, longitude: 0) }
    }
}

/// Web Mercator written out here from its textbook definition, so the test does not lean on
/// the module's own.
enum WebMercatorReference {
    static let a = 6_378_137.0
    static func x(_ lon: Double) -> Double { a * lon * .pi / 180 }
    static func y(_ lat: Double) -> Double { a * log(tan(.pi / 4 + lat * .pi / 360)) }
}
