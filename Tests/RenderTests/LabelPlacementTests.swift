import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

@Suite struct LabelPlacementTests {
    /// A dense grid of labelled points: many labels must collide.
    func denseMap(priorities: Bool = false) throws -> LoadedMap {
        var features: [String] = []
        for i in 0..<15 {
            for j in 0..<15 {
                let priority = priorities ? (i * 15 + j) % 7 : 0
                features.append(
                    TestMap.point(
                        Double(i) * 0.7 - 5, Double(j) * 0.5 - 3.5,
                        #"{"name": "Place \#(i)-\#(j)", "rank": \#(priority)}"#))
            }
        }
        return try TestMap.load(
            features: features,
            layers: [
                #"{"name": "towns", "label": {"attribute": "name", "size": 10, "halo": {"width": 1}}}"#
            ])
    }

    /// The labels `map` places in the whole of `view`.
    static func placed(_ map: LoadedMap, _ view: View) throws -> [LabelCandidate] {
        let text = TextEngine(fonts: try FontConfiguration(fonts: map.document.fonts, systemFonts: false))
        let space = LabelSpace(
            map: map, view: view, text: text, images: try ImageLibrary(document: map.document),
            readers: LayerReaders(map: map))
        let rect = Rect(
            minX: view.originX, minY: view.originY, maxX: view.originX + Double(view.width),
            maxY: view.originY + Double(view.height))
        return try space.placedLabels(in: rect)
    }

    @Test func placedLabelsNeverOverlap() throws {
        let map = try denseMap()
        let view = try View.fitting(west: -6, south: -4, east: 6, north: 4, width: 600, height: 400)
        let labels = try Self.placed(map, view)
        #expect(labels.count > 10)
        #expect(labels.count < 225)  // some had to be dropped
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                #expect(!a.box.overlaps(b.box), "\(a.text) overlaps \(b.text)")
            }
        }
    }

    @Test func placementDoesNotDependOnTheView() throws {
        let map = try denseMap()
        // Two views at the same resolution, one inside the other, origins on whole pixels.
        let big = try View(resolution: 2000, originX: 9800, originY: 9800, width: 400, height: 400)
        let small = try View(resolution: 2000, originX: 9950, originY: 9900, width: 100, height: 150)
        let inBig = Set(try Self.placed(map, big).map(\.id))
        let inSmall = try Self.placed(map, small)
        #expect(!inSmall.isEmpty)
        for label in inSmall { #expect(inBig.contains(label.id), "\(label.text) placed only in the small view") }
    }

    @Test func higherPriorityWins() throws {
        let features = [
            TestMap.point(0, 0, #"{"name": "Low", "p": 1}"#),
            TestMap.point(0.01, 0, #"{"name": "High", "p": 9}"#),
        ]
        for order in [features, features.reversed()] {
            let map = try TestMap.load(
                features: order,
                layers: [
                    #"{"name": "a", "filter": {"property": "p", ">": 5}, "label": {"attribute": "name", "priority": 9}}"#,
                    #"{"name": "b", "filter": {"property": "p", "<": 5}, "label": {"attribute": "name", "priority": 1}}"#,
                ])
            let labels = try Self.placed(
                map, try View.centered(longitude: 0, latitude: 0, scale: 1_000_000, width: 200, height: 100))
            #expect(labels.map(\.text) == ["High"])
        }
    }

    @Test func tinyLabelsAreNotDrawn() throws {
        // 3 pt at the standard dpi is 3.8 px: under the 4 px limit.
        let map = try TestMap.load(
            features: [TestMap.point(0, 0, #"{"name": "Hidden"}"#)],
            layers: [#"{"name": "a", "label": {"attribute": "name", "size": 3}}"#])
        let image = try TestMap.render(
            map, try View.centered(longitude: 0, latitude: 0, scale: 1_000_000, width: 100, height: 50))
        #expect(image.inkedArea == 0)
        let readable = try TestMap.load(
            features: [TestMap.point(0, 0, #"{"name": "Shown"}"#)],
            layers: [#"{"name": "a", "label": {"attribute": "name", "size": 4}}"#])
        let shown = try TestMap.render(
            readable, try View.centered(longitude: 0, latitude: 0, scale: 1_000_000, width: 100, height: 50)
        ).inkedArea
        #expect(shown > 8, "ink \(shown)")
    }
}
