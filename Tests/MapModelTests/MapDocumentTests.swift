import Foundation
import Testing

@testable import MapModel

@Suite struct MapDocumentTests {
    func decode(_ text: String) throws -> MapDocument {
        let value = try JSONParser.parse(Array(text.utf8), file: "map.json")
        return try MapDocument.decode(JSONNode(value: value, file: "map.json"), baseDirectory: "/data")
    }

    func error(_ text: String) -> String {
        do {
            _ = try decode(text)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test func decodesEveryKey() throws {
        let map = try decode(
            """
            {"name": "m", "attribution": "NE", "background": "aliceblue", "referenceScale": 50000,
             "layers": [{"name": "a", "source": "a.geojson", "visible": false, "minScale": 1000, "maxScale": 1e6,
                         "scalesSymbols": false, "filter": {"property": "pop", ">=": 10},
                         "marker": {"shape": "star", "size": 8, "fill": "#ff000080", "outline": {"color": "white", "width": 1}},
                         "line": {"color": "#123", "width": 2, "dash": [4, 2], "cap": "round", "join": "bevel", "opacity": 0.5},
                         "fill": {"color": "#abcdef", "opacity": 0.25, "outline": {"width": 0.5}},
                         "label": {"text": "{name} ({pop})", "font": "DejaVu Sans", "bold": true, "size": 9, "color": "black",
                                   "halo": {"color": "white", "width": 2}, "offset": [1, -2], "priority": 3}}]}
            """)
        #expect(map.background == Color(rgb: 0xF0F8FF))
        #expect(map.referenceScale == 50000)
        let layer = map.layers[0]
        #expect(layer.source == "/data/a.geojson")
        #expect(layer.visible == false && layer.scalesSymbols == false)
        #expect(layer.isVisible(atScale: 5000) == false)
        // Symbols beside the layer's keys make one rule.
        #expect(layer.rules.count == 1)
        let rule = layer.rules[0]
        #expect(rule.filter == nil && !rule.isElse && !rule.stop)
        #expect(rule.marker?.shape == .star && rule.marker?.fill.constant?.alpha == 128.0 / 255)
        #expect(rule.lines.count == 1)
        #expect(rule.lines[0].dash == [4, 2] && rule.lines[0].cap == .round && rule.lines[0].join == .bevel)
        #expect(rule.fill?.outline?.width == .constant(0.5))
        #expect(
            rule.label?.text
                == .template(LabelText(pieces: [.attribute("name"), .literal(" ("), .attribute("pop"), .literal(")")])))
        #expect(rule.label?.offsetY == .constant(-2) && rule.label?.priority == 3 && rule.label?.bold == true)
    }

    @Test func scaleRangeIsMinInclusiveMaxExclusive() {
        var layer = Layer(name: "a", source: "a")
        layer.scales = ScaleRange(
            lower: ScaleRange.Bound(scale: 1000, inclusive: true),
            upper: ScaleRange.Bound(scale: 5000, inclusive: false))
        #expect(!layer.isVisible(atScale: 999))
        #expect(layer.isVisible(atScale: 1000))
        #expect(layer.isVisible(atScale: 4999))
        #expect(!layer.isVisible(atScale: 5000))
    }

    @Test func errorsNameTheJSONPath() {
        #expect(error(#"{"layers": [], "colour": "red"}"#).hasPrefix("map.json: colour: unknown key \"colour\""))
        #expect(
            error(#"{"layers": [{"name": "a", "source": "a", "marker": {"size": "big"}}]}"#)
                == "map.json: layers[0].marker.size: expected a number, got a string")
        #expect(
            error(##"{"layers": [{"name": "a", "source": "a", "fill": {"color": "#ggg"}}]}"##)
                == "map.json: layers[0].fill.color: \"#ggg\" is not a colour (use #rrggbb, #rrggbbaa or a CSS colour name)"
        )
        #expect(
            error(#"{"layers": [{"name": "a", "source": "a", "marker": {"shape": "hexagon"}}]}"#)
                .contains("layers[0].marker.shape: \"hexagon\" is not one of: circle, square"))
        #expect(
            error(#"{"layers": [{"name": "a", "source": "a", "line": {"opacity": 2}}]}"#)
                == "map.json: layers[0].line.opacity: 2 is out of range (0 to 1)")
        #expect(error(#"{"background": "red"}"#) == "map.json: top level: missing required key \"layers\"")
        #expect(error(#"{"layers": [{"name": "a", "source": "a"}]}"#).contains("has no symbol"))
        #expect(error(#"{"referenceScale": -5, "layers": []}"#).hasPrefix("map.json: referenceScale:"))
        #expect(
            error(#"{"layers": [{"name": "a", "source": "a", "label": {"text": "{name"}}]}"#)
                .hasPrefix("map.json: layers[0].label.text: unclosed '{'"))
        #expect(
            error(#"{"layers": [{"name": "a", "source": "a", "minScale": 10, "maxScale": 5, "line": {}}]}"#)
                .hasPrefix("map.json: layers[0].maxScale:"))
        #expect(
            error(#"{"layers": [{"name": "a", "source": "a", "filter": {"property": "x", "~": 1}, "line": {}}]}"#)
                .hasPrefix("map.json: layers[0].filter.~: unknown key"))
    }

    @Test func colours() {
        #expect(Color(parsing: "#ff8000") == Color(rgb: 0xFF8000))
        #expect(Color(parsing: "#F80") == Color(rgb: 0xFF8800))
        #expect(Color(parsing: "#ff800040")?.alpha == 64.0 / 255)
        #expect(Color(parsing: "RebeccaPurple") == Color(rgb: 0x663399))
        #expect(Color(parsing: "transparent")?.alpha == 0)
        for bad in ["", "#", "#12", "#12345", "#1234567", "#xyzxyz", "redd", "rgb(1,2,3)"] {
            #expect(Color(parsing: bad) == nil, "accepted \(bad)")
        }
    }

    @Test func filters() throws {
        let props = Properties([("pop", .number(1500)), ("name", .string("Oslo")), ("code", .string("42"))])
        func f(_ json: String) throws -> Filter {
            try JSONNode(value: try JSONParser.parse(Array(json.utf8), file: "f"), file: "f").filter()
        }
        #expect(try f(#"{"property": "pop", ">=": 1500}"#).matches(props, zoom: 0))
        #expect(try !f(#"{"property": "pop", ">": 1500}"#).matches(props, zoom: 0))
        #expect(try f(#"{"property": "code", "==": 42}"#).matches(props, zoom: 0))
        #expect(try f(#"{"property": "name", "in": ["Oslo", "Bergen"]}"#).matches(props, zoom: 0))
        #expect(try f(#"{"property": "name", "notIn": ["Bergen"]}"#).matches(props, zoom: 0))
        #expect(try f(#"{"property": "missing", "exists": false}"#).matches(props, zoom: 0))
        #expect(try f(#"{"property": "missing", "==": null}"#).matches(props, zoom: 0))
        #expect(
            try f(#"{"all": [{"property": "pop", "<": 2000}, {"not": {"property": "name", "==": "Bergen"}}]}"#).matches(
                props, zoom: 0))
        #expect(
            try !f(#"{"any": [{"property": "pop", "<": 10}, {"property": "name", "==": "Bergen"}]}"#).matches(
                props, zoom: 0))
        #expect(try !f(#"{"property": "name", "<": 5}"#).matches(props, zoom: 0))
    }

    @Test func labelTemplates() throws {
        let props = Properties([("name", .string("Oslo")), ("pop", .number(709000)), ("area", .number(454.5))])
        let template = try LabelText.template("{name}: {pop} ({area} km²) {{x}}").get()
        #expect(template.resolve(props) == "Oslo: 709000 (454.5 km²) {x}")
        #expect(try LabelText.template("{name} {nothing}").get().resolve(props) == "")
    }
}
