import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// The grid overlay in rendered pixels: tiles agree with their metatile, labels are whole and
/// apart, the grid keeps its screen size, and the document's settings reach the drawing.
@Suite struct GridRenderTests {
    static func map(_ name: String, grid: GridSettings?) throws -> LoadedMap {
        var document = try MapDocument.load(path: Repository.fixture("maps/\(name)"))
        document.grid = grid
        return try LoadedMap(document: document)
    }

    /// A map with nothing but a background (a lone point far away), so that every pixel that
    /// differs between a tile and its metatile would be the grid's.
    static func blank(grid: String) throws -> LoadedMap {
        try TestMap.load(
            features: [TestMap.point(-179, -84)], layers: [#"{"name": "p", "marker": {"size": 1}}"#],
            map: ", \"grid\": " + grid)
    }

    /// A metatile cut into tiles gives the same bytes as rendering each tile alone: on a blank
    /// map, so that every differing pixel would be the grid's, and over real maps drawn the way
    /// the tile job draws them (tile by tile, with a buffer). Dashes must continue too.
    @Test(arguments: GridType.allCases)
    func tilesAgreeWithTheirMetatile(_ type: GridType) throws {
        // Tiles ignore edge positions; dashes must continue across tiles too.
        let levels = (0..<GridSettings.levelCount(type)).map { #""\#($0)": {"line": {"dash": [4, 2]}}"# }.joined(
            separator: ", ")
        let dashed = #"{"type": "\#(type.rawValue)", "labelPosition": "allSides", "levels": {\#(levels)}}"#
        var plain = GridSettings(type: type)
        plain.labelPosition = .bottomLeft
        // Crosses, and ticks (crosses in tiles), found from each metatile's own lines.
        let crosses = #"{"type": "\#(type.rawValue)", "style": "crosses", "crossLength": 20}"#
        let ticks = #"{"type": "\#(type.rawValue)", "style": "ticks", "subTicks": 2}"#
        let cases: [(String, MapRenderer, [(Int, Int, Int)])] = [
            ("blank, crosses", try MapRenderer(map: try Self.blank(grid: crosses)), [(6, 18, 23), (12, 1205, 1539)]),
            ("blank, ticks", try MapRenderer(map: try Self.blank(grid: ticks)), [(9, 268, 254)]),
            (
                "blank", try MapRenderer(map: try Self.blank(grid: dashed)),
                [(3, 2, 2), (6, 18, 23), (12, 1205, 1539), (15, 9646, 12319), (9, 268, 254), (8, 134, 0)]
            ),
            ("world.json", try MapRenderer(map: try Self.map("world.json", grid: plain)), [(4, 4, 5), (7, 36, 48)]),
            ("nyc.json", try MapRenderer(map: try Self.map("nyc.json", grid: plain)), [(13, 2411, 3079)]),
        ]
        for (name, renderer, blocks) in cases {
            for (z, x, y) in blocks {
                for columns in [2, 3] {
                    try expectTilesMatchMetatile(
                        renderer: renderer, z: z, x: x, y: y, columns: columns, label: "\(type) over \(name)")
                }
            }
        }
    }

    /// In single images every label is inside the image and no two overlap, in every position.
    @Test(arguments: GridType.allCases)
    func singleImageLabelsAreWholeAndApart(_ type: GridType) throws {
        let map = try Self.map("nyc.json", grid: nil)
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        let views = [
            try View.centered(longitude: -73.95, latitude: 40.72, scale: 70_000, width: 400, height: 300),
            try View.centered(longitude: -73.97, latitude: 40.77, scale: 25_000, width: 333, height: 257),
            try View.fitting(west: -180, south: -85, east: 180, north: 85, width: 600, height: 600),
        ]
        for position in GridSettings.LabelPosition.allCases {
            var settings = GridSettings(type: type)
            settings.labelPosition = position
            for view in views {
                let overlay = GridOverlay(settings: settings, view: view, text: text)
                let levels = overlay.levels()
                let grid = try #require(overlay.geometry(levels))
                let labels = overlay.placedLabels(grid, levels)
                #expect(!labels.isEmpty, "\(type) \(position) at 1:\(Int(view.scale)): no labels")
                for (i, a) in labels.enumerated() {
                    #expect(
                        a.box.minX >= view.originX && a.box.minY >= view.originY
                            && a.box.maxX <= view.originX + Double(view.width)
                            && a.box.maxY <= view.originY + Double(view.height),
                        "\(type) \(position): \(a.text) is cut at the edge")
                    for b in labels[(i + 1)...] {
                        #expect(!a.box.overlaps(b.box), "\(type) \(position): \(a.text) overlaps \(b.text)")
                    }
                }
                if position != .geographic, type != .latlong || view.scale < 1e8 {
                    // Edge positions put line labels at the edges they name.
                    let inset = GridOverlay.edgePadding + 4
                    let edgeLabels = labels.filter { l in
                        l.box.minX - view.originX < inset || l.box.minY - view.originY < inset
                            || view.originX + Double(view.width) - l.box.maxX < inset
                            || view.originY + Double(view.height) - l.box.maxY < inset
                    }
                    if position != .center { #expect(!edgeLabels.isEmpty, "\(type) \(position): nothing at the edges") }
                }
            }
        }
    }

    /// Grid lines and labels keep their size on screen: the reference scale does not apply.
    @Test func gridKeepsItsScreenSize() throws {
        let gridded = try TestMap.load(
            features: [TestMap.point(100, 60)], layers: [#"{"name": "p", "marker": {"size": 4}}"#],
            map:
                #", "referenceScale": 50000000, "grid": {"type": "latlong", "labelsVisible": false, "levels": {"0": {"line": {"color": "black", "width": 2}}}}"#
        )
        let expected = 2 * (25.4 / 0.28) / 72
        for scale in [25_000_000.0, 100_000_000] {
            let image = try TestMap.render(
                gridded, try View.centered(longitude: 0, latitude: 0, scale: scale, width: 61, height: 41))
            // The meridian at 0° runs down the middle column, the equator along the middle row.
            let across = (0..<image.width).reduce(0.0) { $0 + image.darkness($1, 5) }
            let down = (0..<image.height).reduce(0.0) { $0 + image.darkness(5, $1) }
            #expect(abs(across - expected) < 0.1, "meridian \(across) px wide at 1:\(Int(scale))")
            #expect(abs(down - expected) < 0.1, "equator \(down) px wide at 1:\(Int(scale))")
            #expect(image.darkness(30, 5) > 0.9 && image.darkness(5, 20) > 0.9)
        }
    }

    /// `visible: false` draws nothing; a level left out draws its lines with the next level.
    @Test func settingsReachTheDrawing() throws {
        let view = try View.centered(longitude: -73.95, latitude: 40.72, scale: 70_000, width: 200, height: 150)
        let bare = try TestMap.render(try Self.map("nyc.json", grid: nil), view)
        var hidden = GridSettings(type: .mgrs)
        hidden.visible = false
        #expect(try TestMap.render(try Self.map("nyc.json", grid: hidden), view) == bare)
        let shown = try TestMap.render(try Self.map("nyc.json", grid: GridSettings(type: .mgrs)), view)
        #expect(shown != bare)
        var red = GridSettings(type: .mgrs)
        var override = GridLevelOverride()
        override.lineColor = Color(rgb: 0xFF0000)
        override.lineWidth = 3
        red.levels[3] = override
        red.labelsVisible = false
        let image = try TestMap.render(try Self.map("nyc.json", grid: red), view)
        var reddish = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                if p.r > 200 && p.g < 80 && p.b < 80 { reddish += 1 }
            }
        }
        #expect(reddish > 200, "1 km lines in red, 3 pt wide")
    }

    /// MapModel's level counts (for validating documents) are the levels Grids draws.
    @Test func levelCountsAgree() {
        for kind in GridType.allCases {
            let type = GridType(rawValue: kind.rawValue)!
            #expect(GridSettings.levelCount(kind) == GridLevels.levels(for: type).count)
            #expect(GridSettings.levelCount(kind) == GridLevels.levels(for: type, format: .decimalDegrees).count)
        }
    }
}
