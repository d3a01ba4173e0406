import Geodesy
import MapModel
import TestSupport
import Testing

@testable import Render

/// `avoidEdges` drops the cut labels of the rule that asks for it, and nothing else.
@Suite struct LabelEdgeTests {
    /// Two points a pixel inside the left edge, far apart: the label of the rule with
    /// `avoidEdges` is dropped, the other rule's label and its placed marker are kept, cut.
    @Test func onlyTheRuleThatAsksAvoidsTheEdge() throws {
        let map = try TestMap.load(
            features: [
                TestMap.point(-0.99, 0.5, #"{"name": "Avoiding", "kind": "a"}"#),
                TestMap.point(-0.99, -0.5, #"{"name": "Crossing", "kind": "b"}"#),
            ],
            layers: [
                #"{"name": "a", "filter": {"property": "kind", "==": "a"}, "label": {"attribute": "name", "avoidEdges": true}}"#,
                #"{"name": "b", "filter": {"property": "kind", "==": "b"}, "label": {"attribute": "name", "offset": [0, -10], "avoidEdges": false}, "marker": {"shape": "circle", "size": 6, "allowOverlap": false}}"#,
            ])
        let view = try View.fitting(west: -1, south: -1, east: 1, north: 1, width: 200, height: 200)
        let edge = Rect(
            minX: view.originX, minY: view.originY, maxX: view.originX + Double(view.width),
            maxY: view.originY + Double(view.height))
        let labels = try LabelPlacementTests.placed(map, view)
        #expect(!labels.contains { $0.text == "Avoiding" })
        let crossing = try #require(labels.first { $0.text == "Crossing" })
        #expect(!edge.contains(crossing.box), "the kept label is cut by the edge")
        let marker = try #require(labels.first { $0.isMarker })
        #expect(!edge.contains(marker.box), "the kept marker is cut by the edge")
    }

    /// Without the key a label avoids the edge: a point a pixel inside the left edge loses its
    /// label, a point in the middle keeps it.
    @Test func labelsAvoidTheEdgeByDefault() throws {
        let map = try TestMap.load(
            features: [
                TestMap.point(-0.99, 0.5, #"{"name": "Edge"}"#), TestMap.point(0, -0.5, #"{"name": "Middle"}"#),
            ],
            layers: [#"{"name": "places", "label": {"attribute": "name"}}"#])
        #expect(map.document.layers[0].rules.allSatisfy { $0.label?.avoidEdges == true })
        let view = try View.fitting(west: -1, south: -1, east: 1, north: 1, width: 200, height: 200)
        let labels = try LabelPlacementTests.placed(map, view)
        #expect(labels.map(\.text) == ["Middle"])
    }
}
