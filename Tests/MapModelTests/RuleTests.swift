import Foundation
import Testing

@testable import MapModel

/// Which rules draw a feature, and at which scales.
@Suite struct RuleTests {
    func layer(_ json: String) throws -> Layer {
        let text = #"{"layers": [\#(json)]}"#
        let root = try JSONParser.parse(Array(text.utf8), file: "map.json")
        return try MapDocument.decode(JSONNode(value: root, file: "map.json"), baseDirectory: "/").layers[0]
    }

    func rules(_ layer: Layer, _ properties: [(key: String, value: PropertyValue)], scale: Double = 1e6) -> [String] {
        let active = layer.rules(atScale: scale)
        return layer.matchingRules(active, Properties(properties), zoom: ZoomScale.zoom(scale: scale))
            .map { layer.rules[$0].name ?? "?" }
    }

    @Test func rulesInOrderUntilStopThenElse() throws {
        let layer = try layer(
            """
            {"name": "roads", "source": "r", "rules": [
              {"name": "casing", "filter": ["has", "class"], "line": {"width": 6}},
              {"name": "motorway", "filter": {"property": "class", "==": "motorway"}, "line": {"width": 4}, "stop": true},
              {"name": "core", "filter": ["has", "class"], "line": {"width": 3}},
              {"name": "other", "else": true, "line": {"width": 1}}
            ]}
            """)
        #expect(rules(layer, [("class", .string("primary"))]) == ["casing", "core"])
        #expect(rules(layer, [("class", .string("motorway"))]) == ["casing", "motorway"])
        #expect(rules(layer, [("name", .string("x"))]) == ["other"])
    }

    @Test func zoomRangesAreMapLibres() throws {
        let layer = try layer(
            """
            {"name": "a", "source": "a", "rules": [
              {"name": "near", "minZoom": 10, "line": {}},
              {"name": "far", "maxZoom": 10, "line": {}},
              {"name": "band", "minScale": 100000, "maxScale": 1000000, "line": {}}
            ]}
            """)
        let zoom10 = ZoomScale.scale(zoom: 10)
        // minZoom 10 draws from zoom 10 in; maxZoom 10 stops at zoom 10.
        #expect(rules(layer, [], scale: zoom10) == ["near", "band"])
        #expect(rules(layer, [], scale: zoom10 * 1.0001) == ["far", "band"])
        #expect(rules(layer, [], scale: 1_000_000) == ["far"])  // maxScale is exclusive
        #expect(rules(layer, [], scale: 100_000) == ["near", "band"])  // minScale is inclusive
    }

    @Test func scaleRangeMistakesAreNamed() {
        func error(_ json: String) -> String {
            do {
                _ = try layer(json)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error(#"{"name": "a", "source": "a", "minZoom": 5, "maxScale": 1000, "line": {}}"#)
                == "map.json: layers[0].minZoom: give maxScale or minZoom, not both")
        #expect(
            error(#"{"name": "a", "source": "a", "minZoom": 9, "maxZoom": 4, "line": {}}"#)
                == "map.json: layers[0].minZoom: maxZoom must be greater than minZoom")
        #expect(
            error(#"{"name": "a", "source": "a", "rules": [{"else": true, "filter": ["has", "x"], "line": {}}]}"#)
                .hasPrefix("map.json: layers[0].rules[0].else: an else rule"))
        #expect(
            error(#"{"name": "a", "source": "a", "rules": [], "line": {}}"#)
                == "map.json: layers[0].line: a layer with rules gives its symbols in its rules, not beside them")
        #expect(
            error(#"{"name": "a", "source": "", "line": {}}"#)
                == "map.json: layers[0].source: the source is empty: give the path of a data file or a connection string"
        )
    }

    @Test func schemaKeyIsAccepted() throws {
        let text = #"{"$schema": "../schema/map.schema.json", "layers": []}"#
        let root = try JSONParser.parse(Array(text.utf8), file: "map.json")
        #expect(try MapDocument.decode(JSONNode(value: root, file: "map.json"), baseDirectory: "/").layers.isEmpty)
    }
}
