import Foundation
import MapModel
import Raster
import Render
import TestSupport
import Testing

@testable import Sheets

/// Maps, tools and measurements shared by the sheet tests.
enum Support {
    /// A map of `features` (GeoJSON Feature objects) drawn by `layers` (JSON objects without
    /// their source), named "Test sheet", with the shipped fonts only.
    static func map(features: [String], layers: [String], extra: String = "") throws -> LoadedMap {
        try TestMap.load(features: features, layers: layers, map: #", "name": "Test sheet""# + extra)
    }

    /// A white map with nothing on it but one far-away point: only the sheet's own ink shows.
    static func blankMap() throws -> LoadedMap {
        try map(features: [TestMap.point(100, -60)], layers: [#"{"name": "far", "marker": {"size": 1}}"#])
    }

    /// The Manhattan golden sheets: the New York boroughs with `grids` in place of the map's
    /// own, centred on midtown at `scale` on A4 landscape, printed and compared with
    /// `Fixtures/golden/<name>.png`.
    static func verifyManhattanSheet(_ name: String, grids: [GridSettings], scale: Double = 25_000) throws {
        var document = try MapDocument.load(path: Repository.fixture("maps/nyc.json"))
        document.grids = grids
        let renderer = try MapRenderer(map: try LoadedMap(document: document))
        let request = SheetRequest(
            area: .center(longitude: -73.97, latitude: 40.76), scale: scale,
            paper: Paper.standard(named: "A4")!.oriented(.landscape), dpi: 300, grid: .document)
        let image = try printed(try Sheet.make(request, renderer: renderer), renderer: renderer)
        try GoldenCheck(allowedFraction: 0.0005).verify(name, actual: image, expected: "Fixtures/golden/\(name).png")
    }

    /// A sheet as a reader sees it: written as a PDF at 300 dpi and rasterised by poppler at
    /// `dpi` (the golden images are at 100 dpi).
    static func printed(_ sheet: Sheet, renderer: MapRenderer, dpi: Int = 100) throws -> Image {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        let pdf = directory.appendingPathComponent("sheet.pdf").path
        try PageWriter.write(sheet.page, renderer: renderer, dpi: 300, to: pdf)
        return try rasterise(pdf: pdf, dpi: dpi)
    }

    /// A PDF page rasterised by poppler (independent of Cairo): `region` in pixels at `dpi`.
    static func rasterise(pdf: String, dpi: Int, region: (x: Int, y: Int, width: Int, height: Int)? = nil) throws
        -> Image
    {
        let directory = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(directory) }
        var arguments = ["-r", String(dpi), "-png", "-singlefile"]
        if let r = region {
            arguments += ["-x", String(r.x), "-y", String(r.y), "-W", String(r.width), "-H", String(r.height)]
        }
        let stem = directory.appendingPathComponent("page").path
        try Tool.output("pdftoppm", arguments + [pdf, stem])
        return try PNG.decode(contentsOf: stem + ".png")
    }
}

extension Image {
    /// The centres (darkness-weighted, sub-pixel) of the thin dark lines crossing the rows
    /// `rows` between columns `xs`: vertical lines, found from the column profile.
    func verticalLineCentres(rows: Range<Int>, xs: Range<Int>) -> [Double] {
        let profile = xs.map { x in rows.reduce(0.0) { $0 + darkness(x, $1) } / Double(rows.count) }
        return Image.peaks(profile, offset: xs.lowerBound)
    }

    /// As `verticalLineCentres`, for horizontal lines crossing the columns `columns`.
    func horizontalLineCentres(columns: Range<Int>, ys: Range<Int>) -> [Double] {
        let profile = ys.map { y in columns.reduce(0.0) { $0 + darkness($1, y) } / Double(columns.count) }
        return Image.peaks(profile, offset: ys.lowerBound)
    }

    /// Runs of the profile above a third of its maximum, each reduced to its centroid.
    static func peaks(_ profile: [Double], offset: Int) -> [Double] {
        let threshold = (profile.max() ?? 0) / 3
        var centres: [Double] = []
        var i = 0
        while i < profile.count {
            guard profile[i] > threshold else {
                i += 1
                continue
            }
            var j = i
            while j < profile.count, profile[j] > threshold { j += 1 }
            // Widen by two pixels each side to take in the anti-aliased fringe.
            let lo = max(0, i - 2)
            let hi = min(profile.count, j + 2)
            var sum = 0.0
            var weighted = 0.0
            for k in lo..<hi {
                sum += profile[k]
                weighted += profile[k] * Double(k)
            }
            centres.append(weighted / sum + Double(offset) + 0.5)
            i = j
        }
        return centres
    }
}
