import Foundation
import Geodesy
import Testing

@testable import MapModel

/// The document's `grid`: defaults, per-level settings, errors with their JSON paths, and what
/// a change of type keeps.
@Suite struct GridDocumentTests {
    func decode(_ grid: String) throws -> GridSettings? {
        let text = #"{"layers": [], "grid": \#(grid)}"#
        let root = JSONNode(value: try JSONParser.parse(Array(text.utf8), file: "m.json"), file: "m.json")
        return try MapDocument.decode(root, baseDirectory: "/").grid
    }

    func expectError(_ grid: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try decode(grid)
            Issue.record("accepted \(grid)", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)" == message, sourceLocation: sourceLocation)
        }
    }

    @Test func defaults() throws {
        let grid = try #require(try decode(#"{"type": "mgrs"}"#))
        #expect(grid.type == .mgrs && grid.visible && grid.labelsVisible)
        #expect(
            grid.labelPosition == .geographic && grid.labelFormat == .degreesMinutesSeconds
                && grid.labelUnit == .kilometersMeters)
        #expect(grid.minSpacing == 32)
        #expect(grid.style(level: 0) == GridSettings.defaultStyle(type: .mgrs, level: 0))
        // Coarser levels are wider and their text larger.
        for level in 1..<6 {
            #expect(grid.style(level: level).line.width < grid.style(level: level - 1).line.width)
            #expect(grid.style(level: level).text.size <= grid.style(level: level - 1).text.size)
        }
    }

    @Test func everyKey() throws {
        let grid = try #require(
            try decode(
                ##"""
                {"type": "latlong", "visible": false, "labelsVisible": false, "labelPosition": "allSides",
                 "labelFormat": "decimalDegrees", "labelUnit": "meters", "minSpacing": 50,
                 "levels": {"3": {"visible": false, "line": {"color": "red", "width": 2, "dash": [3, 1], "cap": "round", "join": "bevel", "opacity": 0.5},
                                  "text": {"font": "DejaVu Sans", "bold": true, "size": 12, "color": "#00ff00", "halo": {"color": "black", "width": 2}}}}}
                """##))
        #expect(!grid.visible && !grid.labelsVisible && grid.labelPosition == .allSides)
        #expect(grid.labelFormat == .decimalDegrees && grid.labelUnit == .meters && grid.minSpacing == 50)
        let style = grid.style(level: 3)
        #expect(!style.visible)
        #expect(
            style.line
                == LineSymbol(
                    color: Color(rgb: 0xFF0000), width: 2, dash: [3, 1], cap: .round, join: .bevel, opacity: 0.5))
        #expect(
            style.text
                == GridTextSymbol(
                    font: "DejaVu Sans", bold: true, size: 12, color: Color(rgb: 0x00FF00),
                    halo: Halo(color: .black, width: 2)))
    }

    /// A level can be set alone, and within it one thing: the rest keeps its defaults.
    @Test func levelsKeepTheirDefaults() throws {
        let grid = try #require(
            try decode(
                ##"{"type": "utm", "levels": {"2": {"line": {"color": "#123456"}}, "4": {"text": {"halo": {"width": 3}}}}}"##
            ))
        let defaults = GridSettings(type: .utm)
        #expect(grid.style(level: 2).line.color == Color(rgb: 0x123456))
        #expect(grid.style(level: 2).line.width == defaults.style(level: 2).line.width)
        #expect(grid.style(level: 2).text == defaults.style(level: 2).text)
        #expect(grid.style(level: 4).text.halo == Halo(color: .white, width: 3))
        for level in [0, 1, 3] { #expect(grid.style(level: level) == defaults.style(level: level)) }
    }

    @Test func errorsNameTheirPlace() {
        expectError(#"{"visible": true}"#, "m.json: grid: missing required key \"type\"")
        expectError(#"{"type": "osgb"}"#, "m.json: grid.type: \"osgb\" is not one of: latlong, utm, mgrs, usng")
        expectError(
            #"{"type": "utm", "colour": "red"}"#,
            "m.json: grid.colour: unknown key \"colour\" (expected one of: type, visible, labelsVisible, labelPosition, labelPriority, labelFormat, labelUnit, minSpacing, interval, offset, levels, crs, annotation, style, crossLength, tickLength, tickPosition, subTicks, frame, frameWidth)"
        )
        expectError(
            #"{"type": "mgrs", "levels": {"6": {}}}"#,
            "m.json: grid.levels.6: mgrs has levels 0 to 5; \"6\" is not one of them")
        expectError(
            #"{"type": "mgrs", "levels": {"01": {}}}"#,
            "m.json: grid.levels.01: mgrs has levels 0 to 5; \"01\" is not one of them")
        expectError(
            #"{"type": "mgrs", "levels": [1]}"#,
            "m.json: grid.levels: expected an object of levels by number, got an array")
        expectError(
            #"{"type": "mgrs", "levels": {"1": {"line": {"width": "thin"}}}}"#,
            "m.json: grid.levels.1.line.width: expected a number, got a string")
        expectError(
            #"{"type": "mgrs", "levels": {"1": {"text": {"italic": true}}}}"#,
            "m.json: grid.levels.1.text.italic: unknown key \"italic\" (expected one of: font, bold, size, color, halo)"
        )
        expectError(
            #"{"type": "latlong", "labelPosition": "left"}"#,
            "m.json: grid.labelPosition: \"left\" is not one of: geographic, bottomLeft, bottomRight, topLeft, topRight, center, allSides"
        )
        expectError(#"{"type": "latlong", "minSpacing": 0}"#, "m.json: grid.minSpacing: 0 is out of range (1 to 1000)")
    }

    /// `interval` and `offset`: one distance or `[x, y]`; degrees, minutes or seconds for
    /// latitude/longitude, whole metres for the others; errors name the place.
    @Test func intervalAndOffset() throws {
        let utm = try #require(try decode(#"{"type": "utm", "interval": 2000, "offset": [500, -1000]}"#))
        #expect(utm.interval == GridInterval(x: 2000, y: 2000, offsetX: 500, offsetY: -1000))
        let minutes = try #require(try decode(##"{"type": "latlong", "interval": ["5'", "30\""]}"##))
        #expect(minutes.interval?.x == 5 / 60.0 && minutes.interval?.y == 30 / 3600.0)
        let degrees = try #require(
            try decode(#"{"type": "latlong", "labelFormat": "decimalDegrees", "interval": 0.25}"#))
        #expect(degrees.interval == GridInterval(x: 0.25, y: 0.25))
        // Degrees are no metres: a change of type between the two drops the interval.
        #expect(utm.withType(.mgrs).interval == utm.interval && utm.withType(.latlong).interval == nil)

        expectError(
            #"{"type": "utm", "interval": 2000.5}"#, "m.json: grid.interval: 2000.5 is not a whole number of metres")
        expectError(
            #"{"type": "utm", "interval": [1000, 0]}"#,
            "m.json: grid.interval[1]: 0 is out of range (above 0 to 10000000 metres)")
        expectError(
            #"{"type": "latlong", "interval": "5 minutes"}"#,
            ##"m.json: grid.interval: "5 minutes" is not an angle: write degrees (0.5), minutes (5') or seconds (30")"##
        )
        expectError(
            #"{"type": "latlong", "labelFormat": "decimalDegrees", "interval": "5'"}"#,
            #"m.json: grid.interval: "5'" is not a whole number of 0.0001° (labelFormat decimalDegrees)"#)
        expectError(
            #"{"type": "utm", "interval": [1, 2, 3]}"#,
            "m.json: grid.interval: expected one distance or two, [x, y]; got 3")
        expectError(#"{"type": "utm", "offset": 500}"#, "m.json: grid.offset: an offset needs an interval")
    }

    /// Changing the type keeps visibility, labels, position and the colours of levels that
    /// correspond (UTM, MGRS and USNG share theirs; latitude/longitude levels do not).
    @Test func changingTheTypeKeepsWhatCorresponds() throws {
        var grid = try #require(
            try decode(
                #"{"type": "mgrs", "labelPosition": "topLeft", "labelsVisible": false, "levels": {"1": {"line": {"color": "orange"}}}}"#
            ))
        let orange = Color(parsing: "orange")!
        #expect(grid.style(level: 1).line.color == orange)
        let utm = grid.withType(.utm)
        #expect(utm.type == .utm && utm.labelPosition == .topLeft && !utm.labelsVisible)
        #expect(utm.style(level: 1).line.color == orange)
        #expect(utm.style(level: 2) == GridSettings.defaultStyle(type: .utm, level: 2))
        let latlong = grid.withType(.latlong)
        #expect(latlong.labelPosition == .topLeft && !latlong.labelsVisible)
        #expect(latlong.style(level: 1) == GridSettings.defaultStyle(type: .latlong, level: 1))
        grid.visible = false
        #expect(!grid.withType(.usng).visible)
    }
}
