import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// The grid-reference box of MGRS and USNG sheets: its worked example is the reference
/// GeoConvert gives the point circled on the map, at a tenth of the grid's interval, and the
/// box is printed whole inside the page; the legend names layers by their titles.
@Suite struct GridReferenceBoxTests {
    static func sheet(
        _ lon: Double, _ lat: Double, scale: Double, grid: GridType = .mgrs, map: LoadedMap? = nil
    ) throws -> (Sheet, MapRenderer) {
        let renderer = try MapRenderer(map: try map ?? Support.blankMap())
        let request = SheetRequest(
            area: .center(longitude: lon, latitude: lat), scale: scale,
            paper: Paper.standard(named: "A4")!.oriented(.landscape), dpi: 100, grid: .type(grid))
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    static func texts(_ sheet: Sheet) -> [String] {
        sheet.page.items.compactMap { item -> String? in
            if case .text(let t) = item { return t.string } else { return nil }
        }
    }

    /// GeoConvert's `-m` reference of the circled point, at the box's precision, is the one
    /// the box prints; the steps name the grid lines west and south of it.
    @Test(arguments: [
        (-73.97, 40.76, 25_000.0, "18n", -2), (-73.95, 40.70, 250_000, "18n", -3), (18.5, -33.9, 50_000, "34s", -2),
        (10.5, 60.2, 5_000, "32n", -1),
    ])
    func sampleReferenceMatchesGeoConvert(lon: Double, lat: Double, scale: Double, zone: String, precision: Int) throws
    {
        let (sheet, _) = try Self.sheet(lon, lat, scale: scale)
        let grid = try #require(sheet.grid)
        let plane = try #require(sheet.plane as? UTMPlane)
        let sample = try #require(
            GridReferenceBox.sample(plane: plane, transform: sheet.transform, interval: grid.interval))
        #expect(sheet.transform.frame.contains(sheet.transform.page(sample.point)))
        let reference = try GeoConvert.run(
            ["-m", "-p", String(precision)],
            ["\(zone) \(String(format: "%.3f", sample.point.x)) \(String(format: "%.3f", sample.point.y))"])[0]
        // 18TWL876122 as USNG prints it: 18T WL 876 122.
        let digits = (reference.count - 5) / 2
        let chars = Array(reference)
        let pieces: [String] = [
            String(chars[0..<3]), String(chars[3..<5]), String(chars[5..<(5 + digits)]), String(chars[(5 + digits)...]),
        ]
        let usng = pieces.joined(separator: " ")
        let texts = Self.texts(sheet)
        #expect(texts.contains(usng), "1:\(Int(scale)): GeoConvert says \(usng); the box: \(texts)")
        let parts = usng.split(separator: " ")
        #expect(texts.contains("Reference: \(parts[1]) \(parts[2]) \(parts[3])"))
        // The line's figures, and on a 10 km grid the large figures of its value in the collar
        // that hold them (the 9 of 59 for 590,000 m).
        let lines = texts.joined(separator: " ").replacingOccurrences(of: "\u{00A0}", with: " ")
        let printed = (west: Int(sample.lineEasting / 10_000) % 100, south: Int(sample.lineNorthing / 10_000) % 100)
        let west = grid.interval == 10_000 ? "\(parts[2].dropLast()) (of \(printed.west))" : parts[2].dropLast()
        let south = grid.interval == 10_000 ? "\(parts[3].dropLast()) (of \(printed.south))" : parts[3].dropLast()
        #expect(lines.contains("2. Line west: \(west), tenths: \(parts[2].suffix(1))"), "\(lines)")
        #expect(lines.contains("3. Line south: \(south), tenths: \(parts[3].suffix(1))"), "\(lines)")
    }

    /// The box stays on the page, in the band below the map, on every paper; none on UTM or
    /// latitude/longitude sheets.
    @Test func boxOnlyOnMGRSAndUSNGSheetsAndInsideThePage() throws {
        for grid in [GridType.mgrs, .usng] {
            let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: 25_000, grid: grid)
            let box = sheet.page.items.compactMap { item -> PageText? in
                guard case .text(let t) = item, t.string.hasPrefix("Grid reference") else { return nil }
                return t
            }
            let title = try #require(box.first)
            #expect(title.position.y > sheet.layout.border.maxY && title.position.y < sheet.layout.content.maxY)
        }
        for grid in [GridType.utm, .latlong] {
            let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: 25_000, grid: grid)
            #expect(!Self.texts(sheet).contains { $0.hasPrefix("Grid reference") }, "\(grid)")
        }
    }

    /// A layer's `title` names it in the legend; a layer without one is named by its name.
    @Test func legendUsesLayerTitles() throws {
        let map = try Support.map(
            features: [TestMap.point(-73.97, 40.76)],
            layers: [
                #"{"name": "bldg", "title": "Buildings and built-up areas", "marker": {"size": 4}}"#,
                #"{"name": "points", "marker": {"size": 3}}"#,
            ])
        #expect(map.document.layers.first?.title == "Buildings and built-up areas")
        let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: 25_000, map: map)
        let texts = Self.texts(sheet)
        #expect(texts.contains("Buildings and built-up areas"))
        #expect(texts.contains("points"))
        #expect(!texts.contains("bldg"))
        do {
            _ = try Support.map(
                features: [TestMap.point(-73.97, 40.76)],
                layers: [#"{"name": "a", "title": "", "marker": {"size": 3}}"#])
            Issue.record("an empty title was accepted")
        } catch {
            #expect("\(error)".contains("title"), "\(error)")
        }
    }
}
