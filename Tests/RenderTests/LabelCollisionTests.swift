import Foundation
import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// Grid labels and map labels share one collision space (issue 16, item 2): the repros of
/// the issue, where grid labels printed over map labels, in single images and in tiles.
@Suite struct LabelCollisionTests {
    static func renderer(_ file: String, grid: GridSettings?) throws -> MapRenderer {
        var document = try MapDocument.load(path: Repository.fixture("maps/\(file)"))
        document.grid = grid
        // The repros are about grid labels: at 1:5,000,000 world.json's reference-scaled
        // labels are 7 times their size and the image's edge would cut, and drop, them all.
        document.letLabelsCrossEdges()
        return try MapRenderer(map: try LoadedMap(document: document))
    }

    static func grid(_ type: GridType, _ priority: GridSettings.LabelPriority) -> GridSettings {
        var settings = GridSettings(type: type)
        settings.labelPriority = priority
        return settings
    }

    /// The map labels that overlap a grid label, as "map label / grid label".
    static func clashes(_ labels: (map: [LabelCandidate], grid: [GridLabelCandidate])) -> [String] {
        labels.map.flatMap { m in labels.grid.filter { $0.box.overlaps(m.box) }.map { "\(m.text) / \($0.text)" } }
    }

    /// A 60°N label over Stockholm, MGRS zone labels over Stockholm and Tallinn, a 73°58'W
    /// label through "Brooklyn": without a grid these labels are placed, and with one their
    /// boxes meet a grid label's.
    static let scenes:
        [(file: String, type: GridType, longitude: Double, latitude: Double, scale: Double, names: [String])] = [
            ("world.json", .latlong, 18.07, 59.33, 10_000_000, ["Stockholm"]),
            ("world.json", .mgrs, 21.5, 59.4, 5_000_000, ["Stockholm", "Tallinn"]),
            ("nyc.json", .latlong, -73.95, 40.65, 200_000, ["Brooklyn (3)"]),
        ]

    /// Grid labels first (the default): every grid label is drawn, and the map labels that
    /// would overlap one are left out; with `labelPriority: map` those map labels stay and the
    /// grid labels they would overlap go. Either way no map label box overlaps a grid label box.
    @Test(arguments: 0..<3)
    func singleImages(_ scene: Int) throws {
        let s = Self.scenes[scene]
        let view = try View.centered(
            longitude: s.longitude, latitude: s.latitude, scale: s.scale, width: 600, height: 400)
        let bare = try Self.renderer(s.file, grid: nil).placedLabels(view: view)
        for name in s.names { #expect(bare.map.contains { $0.text == name }, "\(name) is not placed without a grid") }

        let gridFirst = try Self.renderer(s.file, grid: Self.grid(s.type, .grid)).placedLabels(view: view)
        #expect(gridFirst.grid.count > 2)
        #expect(Self.clashes(gridFirst).isEmpty, "\(Self.clashes(gridFirst))")
        for name in s.names {
            #expect(!gridFirst.map.contains { $0.text == name }, "\(name) is drawn although a grid label is there")
            // It was left out for a grid label, not for another reason.
            let label = try #require(bare.map.first { $0.text == name })
            #expect(gridFirst.grid.contains { $0.box.overlaps(label.box) }, "\(name) overlaps no grid label")
        }

        let mapFirst = try Self.renderer(s.file, grid: Self.grid(s.type, .map)).placedLabels(view: view)
        #expect(Self.clashes(mapFirst).isEmpty, "\(Self.clashes(mapFirst))")
        #expect(mapFirst.map.map(\.text) == bare.map.map(\.text))
        #expect(mapFirst.grid.count < gridFirst.grid.count)
        for label in gridFirst.grid where !mapFirst.grid.contains(where: { $0.box == label.box }) {
            #expect(mapFirst.map.contains { $0.box.overlaps(label.box) }, "\(label.text) left out for nothing")
        }
    }

    /// Tiles of the Baltic at zoom 6, rendered as 2x2 metatiles: over all of them together no
    /// map label overlaps a grid label, and every label is drawn, or left out, in every block
    /// its box touches.
    @Test(arguments: [GridType.latlong, .mgrs], [GridSettings.LabelPriority.grid, .map])
    func tilesShareOneCollisionSpace(_ type: GridType, _ priority: GridSettings.LabelPriority) throws {
        let renderer = try Self.renderer("world.json", grid: Self.grid(type, priority))
        let bare = try Self.renderer("world.json", grid: nil)
        var mapLabels: [PlacementCandidate.ID: LabelCandidate] = [:]
        var gridLabels: [String: GridLabelCandidate] = [:]
        var views: [View] = []
        var dropped = 0
        var placedWithoutGrid = 0
        for y in stride(from: 17, to: 21, by: 2) {
            for x in stride(from: 33, to: 39, by: 2) {
                let view = try View.tiles(z: 6, x: x, y: y, columns: 2, rows: 2)
                views.append(view)
                let labels = try renderer.placedLabels(view: view)
                for label in labels.map { mapLabels[label.id] = label }
                for label in labels.grid { gridLabels["\(label.text) \(label.box)"] = label }
                let alone = try bare.placedLabels(view: view).map.count
                placedWithoutGrid += alone
                dropped += alone - labels.map.count
            }
        }
        let all = (map: Array(mapLabels.values), grid: Array(gridLabels.values))
        #expect(placedWithoutGrid > 3 && all.grid.count > 10)
        #expect(Self.clashes(all).isEmpty, "\(Self.clashes(all))")
        if priority == .grid { #expect(dropped > 0, "no map label met a grid label: the test shows nothing") }
        // A label drawn in one block is drawn in every block its box touches.
        for view in views {
            let labels = try renderer.placedLabels(view: view)
            let ids = Set(labels.map.map(\.id))
            for label in all.map where label.box.intersects(view.globalBounds) {
                #expect(ids.contains(label.id), "\(label.text) missing from a block it touches")
            }
            let grid = Set(labels.grid.map { "\($0.text) \($0.box)" })
            for label in all.grid where label.box.intersects(view.globalBounds) {
                #expect(grid.contains("\(label.text) \(label.box)"), "\(label.text) missing from a block it touches")
            }
        }
    }
}
