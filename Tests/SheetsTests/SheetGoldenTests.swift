import Foundation
import Geodesy
import ImageDiff
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Sheets

/// Whole sheets as a reader sees them: the PDF, turned into pixels by poppler's pdftoppm,
/// against the expected images in Fixtures/golden (`make golden-update` rewrites them; look
/// at them when they change). New York at 1:25,000 (Manhattan) and 1:250,000 (the five
/// boroughs), each with an MGRS and a latitude/longitude grid, on A4 landscape.
@Suite struct SheetGoldenTests {
    static let cases: [(name: String, longitude: Double, latitude: Double, scale: Double, grid: GridType)] = [
        ("sheet-25k-mgrs", -73.97, 40.76, 25_000, .mgrs),
        ("sheet-25k-latlong", -73.97, 40.76, 25_000, .latlong),
        ("sheet-250k-mgrs", -73.95, 40.70, 250_000, .mgrs),
        ("sheet-250k-latlong", -73.95, 40.70, 250_000, .latlong),
    ]

    @Test(arguments: cases.map(\.name))
    func sheetAsPrinted(name: String) throws {
        let c = Self.cases.first { $0.name == name }!
        let map = try LoadedMap.load(path: Repository.fixture("maps/nyc.json"))
        let renderer = try MapRenderer(map: map)
        let request = SheetRequest(
            area: .center(longitude: c.longitude, latitude: c.latitude), scale: c.scale,
            paper: Paper.standard(named: "A4")!.oriented(.landscape), dpi: 300, grid: .type(c.grid))
        let image = try Support.printed(try Sheet.make(request, renderer: renderer), renderer: renderer)
        // A4 landscape at 100 dpi: 1169.3 x 826.8 pixels, which poppler rounds up.
        #expect(image.width == 1170 && image.height == 827)
        // A sliver of anti-aliasing may differ between poppler builds; nothing more.
        let golden = GoldenCheck(allowedFraction: 0.0005)
        try golden.verify(name, actual: image, expected: "Fixtures/golden/\(name).png")
    }
}
