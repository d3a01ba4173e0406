import Foundation
import Geodesy
import MapModel
import Render
import TestSupport
import Testing

@testable import Sheets

/// What the collar prints: each side the values of the lines it is for (latitudes left and
/// right, longitudes top and bottom), every value on a side readable apart from its
/// neighbours (a 100 km grid's values are not all "00"), and notes that fit the page.
@Suite struct FrameLabelTests {
    static func sheet(
        _ lon: Double, _ lat: Double, scale: Double, grid: GridType, paper: String = "A4",
        map: LoadedMap? = nil
    ) throws -> (Sheet, MapRenderer) {
        let renderer = try MapRenderer(map: try map ?? Support.blankMap())
        let request = SheetRequest(
            area: .center(longitude: lon, latitude: lat), scale: scale, paper: Paper.standard(named: paper)!,
            dpi: 100, grid: .type(grid))
        return (try Sheet.make(request, renderer: renderer), renderer)
    }

    /// The texts of the collar's values on one side, in order along it.
    static func sideTexts(_ sheet: Sheet, _ renderer: MapRenderer, _ side: FrameGrid.Side) throws -> [String] {
        let grid = try #require(sheet.grid)
        return grid.sideLabels(
            side, frame: sheet.layout.frame, collar: sheet.layout.border, measure: { renderer.measure($0) }
        ).map(\.string)
    }

    @Test func latitudesOnTheSidesLongitudesTopAndBottom() throws {
        for (lon, lat, scale) in [
            (-73.97, 40.76, 25_000.0), (-73.3, 40.9, 50_000), (-76.9, 40.2, 100_000), (-72.2, 44.5, 250_000),
            (10.5, 60.2, 250_000), (-79.5, -33.4, 100_000),
        ] {
            let (sheet, renderer) = try Self.sheet(lon, lat, scale: scale, grid: .latlong)
            for side in FrameGrid.Side.allCases {
                for text in try Self.sideTexts(sheet, renderer, side) {
                    let isLatitude = text.hasSuffix("N") || text.hasSuffix("S")
                    let isLongitude = text.hasSuffix("E") || text.hasSuffix("W")
                    if side == .left || side == .right {
                        #expect(!isLongitude, "\(lon),\(lat) 1:\(Int(scale)) \(side): a meridian's value \(text)")
                    } else {
                        #expect(!isLatitude, "\(lon),\(lat) 1:\(Int(scale)) \(side): a parallel's value \(text)")
                    }
                }
            }
        }
    }

    /// On every side of a UTM sheet, at any scale, no two values print alike: each names its line.
    @Test func valuesAlongASideDiffer() throws {
        for (scale, lat) in [(25_000.0, 40.76), (250_000, 45), (1_000_000, 45), (5_000_000, 50)] {
            for type in [GridType.utm, .mgrs] {
                let (sheet, renderer) = try Self.sheet(9.5, lat, scale: scale, grid: type)
                for side in FrameGrid.Side.allCases {
                    let texts = try Self.sideTexts(sheet, renderer, side)
                    #expect(texts.count >= 2, "1:\(Int(scale)) \(type) \(side): \(texts)")
                    #expect(Set(texts).count == texts.count, "1:\(Int(scale)) \(type) \(side): \(texts)")
                }
            }
        }
    }

    /// Long notes are never cut: every word of every note is on the page, inside the paper's
    /// printable area.
    @Test func notesAreNeverCut() throws {
        let words = (1...120).map { "word\($0)" }.joined(separator: " ")
        let map = try Support.map(
            features: [TestMap.point(100, -60)], layers: [#"{"name": "far", "marker": {"size": 1}}"#],
            extra: #", "attribution": "\#(words)""#)
        for paper in ["A4", "A3", "letter"] {
            let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: 25_000, grid: .mgrs, paper: paper, map: map)
            let texts = sheet.page.items.compactMap { item -> PageText? in
                if case .text(let t) = item { return t } else { return nil }
            }
            let printed = texts.map(\.string).joined(separator: " ")
            for k in [1, 60, 119, 120] {
                #expect(printed.contains("word\(k)"), "\(paper): word\(k) of the attribution is not printed")
            }
            let content = sheet.layout.content
            for t in texts {
                #expect(
                    t.position.y >= content.minY - 0.01 && t.position.y <= content.maxY + 0.01,
                    "\(paper): '\(t.string)' is printed at \(t.position.y) mm, off the printable area")
            }
        }
    }

    /// The scale bars count in kilometres (or metres), statute miles and nautical miles, each
    /// bar's segments as long on paper as their distance at the sheet's scale; the title's
    /// line gives the centre, not the paper size.
    @Test func scaleInThreeUnitsAndNoPaperUnderTheTitle() throws {
        for scale in [25_000.0, 250_000] {
            let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: scale, grid: .utm)
            let texts = sheet.page.items.compactMap { item -> String? in
                if case .text(let t) = item { return t.string } else { return nil }
            }
            for unit in ["statute miles", "nautical miles"] {
                #expect(texts.contains(unit), "1:\(Int(scale)): \(unit)")
            }
            #expect(texts.contains("kilometres") || texts.contains("metres"), "1:\(Int(scale))")
            let subtitle = try #require(texts.first { $0.hasPrefix("Centred on") })
            #expect(!subtitle.contains("mm") && !subtitle.contains("A4"), "\(subtitle)")
        }
    }

    /// An MGRS sheet prints each 100 km square's letters on the map, and they are the letters
    /// GeoConvert gives at the place they are printed; a lat/long sheet prints none.
    @Test func squareLettersOnTheMapMatchGeoConvert() throws {
        for (scale, expected) in [(25_000.0, ["WL"]), (250_000, ["WL", "XL"])] {
            let (sheet, _) = try Self.sheet(-73.97, 40.76, scale: scale, grid: .mgrs)
            let frame = sheet.layout.frame
            let letters = sheet.page.items.compactMap { item -> PageText? in
                guard case .text(let t) = item, frame.contains(t.position), t.string.count == 2,
                    t.string.allSatisfy({ $0.isUppercase })
                else { return nil }
                return t
            }
            let printed = letters.map(\.string)
            for square in expected { #expect(printed.contains(square), "1:\(Int(scale)): \(printed)") }
            let positions = letters.map { sheet.plane.unproject(sheet.transform.plane($0.position)) }
            let mgrs = try GeoConvert.run(
                ["-m", "-p", "-5"], positions.map { GeoConvert.text(latitude: $0.latitude, longitude: $0.longitude) })
            for (text, reference) in zip(printed, mgrs) {
                #expect(
                    reference.dropFirst(3).prefix(2) == Substring(text),
                    "1:\(Int(scale)): \(text) where GeoConvert says \(reference)")
            }
        }
        let (latlong, _) = try Self.sheet(-73.97, 40.76, scale: 25_000, grid: .latlong)
        #expect(
            !latlong.page.items.contains { item in
                if case .text(let t) = item { return t.string == "WL" } else { return false }
            })
    }
}
