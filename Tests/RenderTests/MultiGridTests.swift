import Foundation
import Geodesy
import Grids
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// Several grids on one map (`"grids": [...]`): the document's keys, each grid's lines where
/// GeoConvert and the Web Mercator formula put them, a later grid's labels giving way to an
/// earlier grid's (and map labels to both), tiles agreeing with their metatile, and a golden.
@Suite struct MultiGridTests {
    static let brooklyn = {
        try! View.centered(longitude: -73.95, latitude: 40.72, scale: 50_000, width: 512, height: 384)
    }()

    /// A map with nothing but a background (a lone point far away) and `grids`.
    static func blank(grids: String) throws -> LoadedMap {
        try TestMap.load(
            features: [TestMap.point(-179, -84)], layers: [#"{"name": "p", "marker": {"size": 1}}"#],
            map: ", \"grids\": " + grids)
    }

    static func nyc(_ grids: [GridSettings]) throws -> LoadedMap {
        var document = try MapDocument.load(path: Repository.fixture("maps/nyc.json"))
        document.grids = grids
        return try LoadedMap(document: document)
    }

    static func decode(_ keys: String) throws -> MapDocument {
        let text = #"{"layers": []\#(keys)}"#
        let root = JSONNode(value: try JSONParser.parse(Array(text.utf8), file: "m.json"), file: "m.json")
        return try MapDocument.decode(root, baseDirectory: "/")
    }

    /// `grids` keeps its grids in order with their own settings; `grid` is a one-element
    /// `grids`; both at once is an error naming the file; a bad grid names its index.
    @Test func documentKeys() throws {
        let two = try Self.decode(
            #", "grids": [{"type": "mgrs", "labelPosition": "bottomLeft"}, {"type": "latlong", "style": "ticks", "visible": false}]"#
        )
        #expect(two.grids.map(\.type) == [.mgrs, .latlong])
        #expect(two.grids[0].labelPosition == .bottomLeft && two.grids[0].marks.kind == .lines)
        #expect(two.grids[1].marks.kind == .ticks && !two.grids[1].visible)
        #expect(two.grid?.type == .mgrs && two.visibleGrids.map(\.type) == [.mgrs])
        let one = try Self.decode(#", "grid": {"type": "utm"}"#)
        #expect(one.grids.map(\.type) == [.utm])
        #expect(try Self.decode("").grids.isEmpty)
        do {
            _ = try Self.decode(#", "grid": {"type": "utm"}, "grids": [{"type": "mgrs"}]"#)
            Issue.record("accepted grid and grids together")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("m.json") && text.contains("\"grid\" and \"grids\""), "\(text)")
        }
        do {
            _ = try Self.decode(#", "grids": [{"type": "utm"}, {"type": "hex"}]"#)
            Issue.record("accepted a grid of an unknown type")
        } catch {
            #expect("\(error)".contains("grids[1].type"), "\(error)")
        }
        // Setting `grid` replaces the first and keeps the others; nil removes them all.
        var document = two
        document.grid = GridSettings(type: .usng)
        #expect(document.grids.map(\.type) == [.usng, .latlong])
        document.grid = nil
        #expect(document.grids.isEmpty)
    }

    /// UTM lines and a 1' lat/long tick border over Brooklyn at 1:50,000, labels off: the
    /// 1 km lines are dark where GeoConvert puts them (by the Web Mercator formula), and the
    /// bottom edge is dark at each 1' meridian by the formula, where the UTM grid alone is not.
    @Test func eachGridDrawsWhereItsReferencePutsIt() throws {
        let utm = #"{"type": "utm", "labelsVisible": false}"#
        let ticks = #"{"type": "latlong", "interval": "1'", "style": "ticks", "labelsVisible": false}"#
        let view = Self.brooklyn
        let both = try MapRenderer(map: try Self.blank(grids: "[\(utm), \(ticks)]")).renderImage(view: view)
        let alone = try MapRenderer(map: try Self.blank(grids: "[\(utm)]")).renderImage(view: view)
        func dark(_ image: Image, _ x: Int, _ y: Int) -> Bool {
            max(image.darkness(x, y), image.darkness(x + 1, y)) > 0.2
        }
        func image(_ lat: Double, _ lon: Double) -> (x: Int, y: Int) {
            let p = WebMercatorFormula.pixel(latitude: lat, longitude: lon, resolution: view.resolution)
            return (Int((p.x - view.originX).rounded(.down)), Int((p.y - view.originY).rounded(.down)))
        }
        // UTM 18N: eastings 583-592 km at the northing of the view's middle.
        let middle = try GeoConvert.run(["-u", "-z", "18n", "-p", "0"], ["40.72 -73.95"])[0].split(separator: " ")
        let northing = (Double(middle[2])! / 1000).rounded() * 1000
        let eastings = stride(from: 584_000.0, through: 590_000, by: 1000).map { "18n \($0) \(northing)" }
        var checked = 0
        for text in try GeoConvert.run(["-g", "-p", "9"], eastings) {
            let parts = text.split(separator: " ").compactMap { Double($0) }
            let p = image(parts[0], parts[1])
            guard p.x > 2, p.x < view.width - 3 else { continue }
            #expect(dark(both, p.x, p.y), "no UTM line at \(text)")
            checked += 1
        }
        #expect(checked >= 5)
        // The 1' meridians across the view, ticked at the bottom edge by the second grid only.
        let west = WebMercator.inverse(view.transform.plane(global: PlanePoint(x: view.originX, y: 0))).longitude
        var ticked = 0
        var meridian = (west * 60).rounded(.up) / 60
        while image(40.72, meridian).x < view.width - 3 {
            let x = image(40.72, meridian).x
            if x > 2 {
                #expect(dark(both, x, view.height - 2), "no tick at \(meridian)°")
                if !dark(alone, x, view.height - 2) { ticked += 1 }
            }
            meridian += 1 / 60.0
        }
        #expect(ticked >= 3, "the tick border adds nothing to the UTM grid")
    }

    /// Labels of the grids `renderer` draws in `view`, split by grid: the first grid's come
    /// first in drawing order and are those the first grid alone draws.
    func split(
        _ view: View, grids: [GridSettings], map: (([GridSettings]) throws -> LoadedMap)
    ) throws -> (first: [GridLabelCandidate], later: [GridLabelCandidate], laterAlone: [GridLabelCandidate]) {
        let both = try MapRenderer(map: try map(grids)).placedLabels(view: view).grid
        let first = try MapRenderer(map: try map([grids[0]])).placedLabels(view: view).grid
        let second = try MapRenderer(map: try map([grids[1]])).placedLabels(view: view).grid
        let key = { (l: GridLabelCandidate) in "\(l.text) \(l.box)" }
        #expect(both.prefix(first.count).map(key) == first.map(key), "the first grid's labels changed")
        return (first, Array(both.dropFirst(first.count)), second)
    }

    /// MGRS and lat/long labels both at the bottom and left edges of single images, and both
    /// anchored on the grid in a block of tiles: the first grid keeps all its labels, the
    /// second keeps those clear of them (and some are dropped, so the rule was tried).
    @Test func laterGridLabelsGiveWayToEarlierOnes() throws {
        var mgrs = GridSettings(type: .mgrs)
        mgrs.labelPosition = .bottomLeft
        var latlong = GridSettings(type: .latlong)
        latlong.labelPosition = .bottomLeft
        latlong.interval = GridInterval(x: 1 / 60.0, y: 1 / 60.0)
        let views = [
            Self.brooklyn,
            try View.centered(longitude: -73.9, latitude: 40.7, scale: 150_000, width: 600, height: 450),
            try View.tiles(z: 13, x: 2411, y: 3079, columns: 2, rows: 2),
        ]
        var dropped = 0
        for view in views {
            let labels = try split(view, grids: [mgrs, latlong], map: Self.nyc)
            #expect(!labels.first.isEmpty && !labels.later.isEmpty)
            for label in labels.later {
                #expect(labels.laterAlone.contains { $0.text == label.text && $0.box == label.box })
                for earlier in labels.first {
                    #expect(!earlier.box.overlaps(label.box), "\(label.text) over \(earlier.text)")
                }
            }
            dropped += labels.laterAlone.count - labels.later.count
        }
        #expect(dropped > 0)
    }

    /// Map labels keep clear of every grid's labels (both go first by default), and a grid whose
    /// `labelPriority` is `map` gives way to them instead: over the Baltic at 1:5,000,000 (a
    /// single image and zoom 6 tiles, where Stockholm and Tallinn meet grid labels) and over
    /// Brooklyn at 1:200,000.
    @Test func mapLabelsAvoidEveryGrid() throws {
        func world(_ grids: [GridSettings]) throws -> LoadedMap {
            var document = try MapDocument.load(path: Repository.fixture("maps/world.json"))
            document.grids = grids
            // At 1:5,000,000 its reference-scaled labels are 7 times their size: the image's
            // edge cuts every one, and they would all avoid it.
            document.letLabelsCrossEdges()
            return try LoadedMap(document: document)
        }
        let scenes: [(map: ([GridSettings]) throws -> LoadedMap, views: [View])] = [
            (
                world,
                [
                    try View.centered(longitude: 21.5, latitude: 59.4, scale: 5_000_000, width: 600, height: 400),
                    try View.tiles(z: 6, x: 35, y: 17, columns: 2, rows: 2),
                ]
            ),
            (
                Self.nyc,
                [try View.centered(longitude: -73.95, latitude: 40.65, scale: 200_000, width: 600, height: 400)]
            ),
        ]
        var latlong = GridSettings(type: .latlong)
        latlong.labelPosition = .allSides
        for (map, views) in scenes {
            for view in views {
                let bare = try MapRenderer(map: try map([])).placedLabels(view: view).map
                for yielding in [false, true] {
                    var second = latlong
                    if yielding { second.labelPriority = .map }
                    let labels = try MapRenderer(map: try map([GridSettings(type: .mgrs), second])).placedLabels(
                        view: view)
                    #expect(!bare.isEmpty && labels.grid.count > 4)
                    for m in labels.map {
                        for g in labels.grid {
                            #expect(!m.box.overlaps(g.box), "\(m.text) over \(g.text) at 1:\(Int(view.scale))")
                        }
                    }
                    // Something gave way: map labels to the grids, or the yielding grid's labels.
                    #expect(labels.map.count < bare.count || yielding)
                }
            }
        }
    }

    /// A metatile cut into tiles gives the same bytes as each tile rendered alone, with two
    /// grids whose labels meet: on a blank map and over nyc.json.
    @Test func tilesAgreeWithTheirMetatile() throws {
        let grids =
            #"[{"type": "mgrs", "labelPosition": "allSides"}, {"type": "latlong", "style": "ticks", "interval": "1'"}]"#
        var mgrs = GridSettings(type: .mgrs)
        mgrs.labelPosition = .bottomLeft
        var ticks = GridSettings(type: .latlong)
        ticks.marks.kind = .ticks
        let cases: [(String, MapRenderer, [(Int, Int, Int)])] = [
            ("blank", try MapRenderer(map: try Self.blank(grids: grids)), [(12, 1205, 1539), (15, 9646, 12319)]),
            ("nyc.json", try MapRenderer(map: try Self.nyc([mgrs, ticks])), [(13, 2411, 3079), (11, 602, 769)]),
        ]
        for (name, renderer, blocks) in cases {
            for (z, x, y) in blocks {
                try expectTilesMatchMetatile(
                    renderer: renderer, z: z, x: x, y: y, columns: 3, label: "two grids over \(name)")
            }
        }
    }

    /// Golden image, looked at before it was committed: MGRS lines with a 5' lat/long tick
    /// border over the boroughs at 1:150,000.
    @Test func golden() throws {
        let mgrs = GridSettings(type: .mgrs)
        var ticks = GridSettings(type: .latlong)
        ticks.interval = GridInterval(x: 5 / 60.0, y: 5 / 60.0)
        ticks.marks.kind = .ticks
        ticks.marks.subTicks = 4
        ticks.labelPosition = .allSides
        let view = try View.centered(longitude: -73.93, latitude: 40.7, scale: 150_000, width: 640, height: 480)
        let image = try MapRenderer(map: try Self.nyc([mgrs, ticks])).renderImage(view: view)
        do {
            try GridGoldenTests().golden.verify(
                "grids-mgrs-latlong-ticks", actual: image, expected: "Fixtures/golden/grids-mgrs-latlong-ticks.png")
        } catch {
            Issue.record("\(error)")
        }
    }
}
