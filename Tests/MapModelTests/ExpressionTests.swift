import Foundation
import Testing

@testable import MapModel

/// Expressions read from JSON and evaluated against values worked out by hand.
@Suite struct ExpressionTests {
    func expression(_ json: String, _ type: ValueType = .value) throws -> StyleExpression {
        let value = try JSONParser.parse(Array(json.utf8), file: "e.json")
        return try JSONNode(value: value, file: "e.json", path: "x").expression(type)
    }

    func value(
        _ json: String, zoom: Double = 0, _ properties: [(key: String, value: PropertyValue)] = [],
        _ type: ValueType = .value
    ) throws -> ExpressionValue {
        try expression(json, type).evaluate(EvaluationContext(zoom: zoom, properties: Properties(properties)))
    }

    func number(_ json: String, zoom: Double = 0, _ properties: [(key: String, value: PropertyValue)] = []) throws
        -> Double?
    {
        try value(json, zoom: zoom, properties, .number).number
    }

    func error(_ json: String, _ type: ValueType) -> String {
        do {
            _ = try expression(json, type)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func interpolateLinearly() throws {
        let e = #"["interpolate", ["linear"], ["zoom"], 4, 1, 8, 5]"#
        #expect(try number(e, zoom: 2) == 1)  // below the first stop: the first output
        #expect(try number(e, zoom: 4) == 1)
        #expect(try number(e, zoom: 5) == 2)  // a quarter of the way: 1 + 4/4
        #expect(try number(e, zoom: 7.5) == 4.5)
        #expect(try number(e, zoom: 12) == 5)
    }

    @Test func interpolateExponentially() throws {
        // Base 2 from 0 to 3 between zooms 0 and 2: t = (2^1 - 1) / (2^2 - 1) = 1/3 at zoom 1.
        let e = #"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 3]"#
        #expect(abs(try number(e, zoom: 1)! - 1) < 1e-12)
        // At zoom 1.5: (2^1.5 - 1) / 3 * 3 = 2^1.5 - 1 = 1.8284271...
        #expect(abs(try number(e, zoom: 1.5)! - 1.8284271247461903) < 1e-12)
    }

    @Test func interpolateColours() throws {
        let e = ##"["interpolate", ["linear"], ["get", "t"], 0, "#000000", 10, "#ff0080"]"##
        let mid = try value(e, [("t", .number(5))], .color).color!
        #expect(abs(mid.red - 0.5) < 1e-12 && mid.green == 0 && abs(mid.blue - 64.0 / 255) < 1e-12)
    }

    @Test func stepsAndMatches() throws {
        let step = #"["step", ["get", "pop"], 1, 1000, 2, 100000, 3]"#
        #expect(try number(step, [("pop", .number(999))]) == 1)
        #expect(try number(step, [("pop", .number(1000))]) == 2)  // a stop's own value takes its output
        #expect(try number(step, [("pop", .string("250000"))]) == 3)  // numbers held as text count
        let match = #"["match", ["get", "class"], ["motorway", "trunk"], 8, "primary", 5, 1]"#
        #expect(try number(match, [("class", .string("trunk"))]) == 8)
        #expect(try number(match, [("class", .string("primary"))]) == 5)
        #expect(try number(match, [("class", .string("path"))]) == 1)
        #expect(try number(match, []) == 1)
    }

    @Test func caseCoalesceAndLogic() throws {
        let e = #"["case", ["all", ["has", "a"], [">", ["get", "a"], 3]], 10, ["any", ["!", ["has", "b"]]], 20, 30]"#
        #expect(try number(e, [("a", .number(4))]) == 10)
        #expect(try number(e, [("a", .number(2))]) == 20)
        #expect(try number(e, [("a", .number(2)), ("b", .bool(true))]) == 30)
        #expect(
            try value(#"["coalesce", ["get", "x"], ["get", "y"], "none"]"#, [("y", .string("why"))]) == .string("why"))
        #expect(try value(#"["coalesce", ["get", "x"], "none"]"#) == .string("none"))
    }

    @Test func arithmetic() throws {
        #expect(try number(#"["+", 1, 2, 3.5]"#) == 6.5)
        #expect(try number(#"["-", 10, 4]"#) == 6)
        #expect(try number(#"["-", 7]"#) == -7)
        #expect(try number(#"["*", ["get", "lanes"], 1.5]"#, [("lanes", .number(4))]) == 6)
        #expect(try number(#"["/", 7, 2]"#) == 3.5)
        #expect(try number(#"["%", 7, 3]"#) == 1)
        #expect(try number(#"["^", 2, 10]"#) == 1024)
        #expect(try number(#"["sqrt", 2]"#) == 2.0.squareRoot())
        #expect(try number(#"["round", 2.5]"#) == 3)
        #expect(try number(#"["min", 4, -1, 3]"#) == -1)
        #expect(try number(#"["/", 1, 0]"#) == nil)  // no value, not infinity
        #expect(try number(#"["+", ["get", "missing"], 1]"#) == nil)
    }

    @Test func strings() throws {
        #expect(
            try value(
                #"["concat", ["upcase", ["get", "n"]], " ", ["to-string", ["get", "p"]]]"#,
                [("n", .string("Oslo")), ("p", .number(709000))])
                == .string("OSLO 709000"))
        #expect(try value(#"["downcase", "ÉTÉ"]"#) == .string("été"))
        #expect(try value(#"["to-string", 2.5]"#) == .string("2.5"))
        #expect(try number(#"["to-number", ["get", "s"], 0]"#, [("s", .string("42.5"))]) == 42.5)
        #expect(try number(#"["to-number", ["get", "s"], 0]"#, [("s", .string("n/a"))]) == 0)
    }

    @Test func zoomIsTheWebMercatorZoomOfTheScale() {
        // Zoom 0 of 256 px tiles at the 0.28 mm pixel: 1:559,082,264.029 (OGC WebMercatorQuad).
        #expect(abs(ZoomScale.zoomZeroScale - 559_082_264.0287178) < 1e-6)
        #expect(ZoomScale.zoom(scale: 559_082_264.0287178 / 32) == 5)
        #expect(abs(ZoomScale.zoom(scale: 1_000_000) - 9.126916768) < 1e-8)
        #expect(abs(ZoomScale.scale(zoom: 10) - 545_978.7735) < 1e-3)
    }

    @Test func typeErrorsNameThePosition() throws {
        let text = """
            {"layers": [{"name": "a", "source": "a", "line": {}}, {"name": "b", "source": "b", "line": {}},
                        {"name": "c", "source": "c", "line": {"width": ["interpolate", ["linear"], ["zoom"], 5, "red", 10, "green"]}}]}
            """
        let root = try JSONParser.parse(Array(text.utf8), file: "map.json")
        do {
            _ = try MapDocument.decode(JSONNode(value: root, file: "map.json"), baseDirectory: "/")
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "map.json: layers[2].line.width: interpolate expects a number output, got a colour")
        }
        #expect(
            error(##"["match", ["get", "k"], "a", "#ff0000", 3]"##, .color)
                == "e.json: x: match expects a colour output, got a number")
        #expect(
            error(#"["get", "a", "b"]"#, .value)
                == "e.json: x: get expects 1 argument (an attribute name), got 2 arguments")
        #expect(error(#"["zoom", 1]"#, .number).hasSuffix("zoom expects no arguments, got 1 argument"))
        #expect(error(#"["interpolate", ["cubic"], ["zoom"], 1, 2]"#, .number).hasPrefix("e.json: x[1]:"))
        #expect(
            error(#"["step", ["zoom"], 1, 5, 2, 3, 4]"#, .number) == "e.json: x[5]: stops must increase: 3 follows 5")
        #expect(error(#"["+", 1, "a"]"#, .number) == "e.json: x[2]: expected a number, got a string")
        #expect(error(#"["frobnicate", 1]"#, .number).contains("unknown expression operator \"frobnicate\""))
        #expect(error(#"["case", ["get", "a"], 1, 2]"#, .number) == "no error")  // an attribute is checked per feature
        #expect(error(#"["case", 1, 1, 2]"#, .number) == "e.json: x[1]: expected a boolean, got a number")
        #expect(error(#"["concat", "a"]"#, .number) == "e.json: x: expected a number, got a string")
    }

    @Test func valuesThatDoNotDependOnTheFeatureAreFoldedPerZoom() throws {
        let node = JSONNode(
            value: try JSONParser.parse(Array(#"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 10]"#.utf8), file: "f"),
            file: "f")
        let width: StyleValue<Double> = try node.styleValue(fallback: 1) { try $0.size() }
        #expect(width.at(zoom: 3) == .constant(3))
        let literal = JSONNode(value: .number(2), file: "f")
        #expect(try literal.styleValue(fallback: 1) { try $0.size() } == StyleValue<Double>.constant(2))
    }

    /// What an indexed source measures for a label text expression: never shorter than any
    /// text the expression makes, whatever the attributes.
    @Test func labelLengthBoundCoversEveryText() throws {
        let e = try expression(
            #"["concat", ["upcase", ["get", "name"]], " ", ["match", ["get", "kind"], "a", "(city)", "(town)"], " ", ["to-string", ["round", ["/", ["get", "pop"], 1000]]], "k"]"#,
            .string)
        let bound = LabelContent.expression(e).lengthBound
        let cases: [[(key: String, value: PropertyValue)]] = [
            [("name", .string("Zürich")), ("kind", .string("a")), ("pop", .number(421_878))],
            [("name", .string("Llanfairpwllgwyngyll")), ("kind", .string("b")), ("pop", .number(-1.5e300))],
            [("name", .string("x")), ("kind", .null), ("pop", .number(0.000123456789012345))],
        ]
        for properties in cases {
            let values = Properties(properties)
            let text = LabelContent.expression(e).resolve(EvaluationContext(zoom: 0, properties: values))
            #expect(!text.isEmpty)
            // The bound's own text for these attributes, with a number printed as itself.
            #expect(bound.resolve(values).unicodeScalars.count >= text.unicodeScalars.count, "\(text)")
        }
    }
}
