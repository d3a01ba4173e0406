import Foundation
import Geodesy
import Testing

@testable import MapModel

/// The grid's `annotation` object as the document gives it: every key read, the defaults
/// the grid had before it existed, the ladder following the format, and one-line errors that
/// name the file and the key path.
@Suite struct GridAnnotationDocumentTests {
    static func document(_ grid: String) -> String { #"{"layers": [], "grid": "# + grid + "}" }

    func grid(_ json: String) throws -> GridSettings {
        try #require(try MapDocumentTests().decode(Self.document(json)).grid)
    }

    func error(_ json: String) -> String { MapDocumentTests().error(Self.document(json)) }

    @Test func readsEveryKey() throws {
        let g = try grid(
            #"""
            {"type": "latlong", "annotation": {"format": "DM.mm", "precision": 3, "padding": true,
             "hemisphere": "prefix", "left": {"axis": "both", "position": "inside", "direction": "along"},
             "top": {"axis": "none"}, "right": {"direction": "along"}, "bottom": {"position": "inside"}}}
            """#)
        let a = try #require(g.annotation)
        #expect(a.format == .DMmm && a.precision == 3 && a.padding && a.hemisphere == .prefix)
        #expect(a.left == GridAnnotation.Side(axis: .both, position: .inside, direction: .along))
        #expect(a.top == GridAnnotation.Side(axis: .none))
        #expect(a.right == GridAnnotation.Side(axis: .latitude, direction: .along))
        #expect(a.bottom == GridAnnotation.Side(axis: .longitude, position: .inside))
        #expect(a.angleStyle(step: 1)?.decimals == 3)
        #expect(a.angleStyle(step: 1)?.unit == .minute)
    }

    /// Without `annotation` the grid labels as it did; with sides only, the text is still
    /// `labelFormat`'s; the cartographic default sides; DM.mm two decimals; decimal degrees
    /// as many as the step needs; UTM aliases for the axes.
    @Test func defaults() throws {
        #expect(try grid(#"{"type": "latlong"}"#).annotation == nil)
        let sidesOnly = try #require(
            try grid(#"{"type": "latlong", "annotation": {"top": {"axis": "none"}}}"#).annotation)
        #expect(sidesOnly.format == nil && sidesOnly.angleStyle(step: 1) == nil)
        #expect(sidesOnly.left == GridAnnotation.Side(axis: .latitude, position: .outside, direction: .horizontal))
        #expect(sidesOnly.bottom == GridAnnotation.Side(axis: .longitude))
        #expect(
            try grid(#"{"type": "latlong", "annotation": {"format": "DM.mm"}}"#).annotation?.angleStyle(step: 1)?
                .decimals == 2)
        let decimal = try grid(#"{"type": "latlong", "annotation": {"format": "D"}}"#)
        #expect(decimal.labelFormat == .decimalDegrees)
        #expect(decimal.annotation?.angleStyle(step: 0.05)?.decimals == 2)
        // Text keys without a format follow labelFormat.
        let hemisphere = try grid(#"{"type": "latlong", "annotation": {"hemisphere": "sign"}}"#)
        #expect(hemisphere.annotation?.format == .DMS && hemisphere.labelFormat == .degreesMinutesSeconds)
        let decimalSign = try grid(
            #"{"type": "latlong", "labelFormat": "decimalDegrees", "annotation": {"hemisphere": "sign"}}"#)
        #expect(decimalSign.annotation?.format == .DD)
        // A format does not override an explicit labelFormat.
        #expect(
            try grid(#"{"type": "latlong", "labelFormat": "decimalDegrees", "annotation": {"format": "DMS"}}"#)
                .labelFormat == .decimalDegrees)
        let utm = try grid(
            #"{"type": "utm", "annotation": {"left": {"axis": "easting"}, "top": {"axis": "northing"}}}"#)
        #expect(utm.annotation?.left.axis == .longitude && utm.annotation?.top.axis == .latitude)
        // The interval is checked on the format's ladder: 0.05° needs decimal degrees.
        #expect(try grid(#"{"type": "latlong", "annotation": {"format": "DD"}, "interval": 0.05}"#).interval?.x == 0.05)
    }

    @Test func errorsNameTheKeyPath() {
        #expect(
            error(#"{"type": "latlong", "annotation": {"fromat": "DM"}}"#)
                .hasPrefix("map.json: grid.annotation.fromat: unknown key \"fromat\""))
        #expect(
            error(#"{"type": "latlong", "annotation": {"format": "DMm"}}"#)
                == "map.json: grid.annotation.format: \"DMm\" is not one of: D, DD, DM, DM.mm, DMS")
        #expect(
            error(#"{"type": "latlong", "annotation": {"left": {"axis": "lat"}}}"#)
                == "map.json: grid.annotation.left.axis: \"lat\" is not one of: latitude, longitude, both, none, easting, northing"
        )
        #expect(
            error(#"{"type": "latlong", "annotation": {"right": {"side": "left"}}}"#)
                .hasPrefix("map.json: grid.annotation.right.side: unknown key \"side\""))
        #expect(
            error(#"{"type": "latlong", "annotation": {"top": {"position": "above"}}}"#)
                == "map.json: grid.annotation.top.position: \"above\" is not one of: inside, outside")
        #expect(
            error(#"{"type": "latlong", "annotation": {"bottom": {"direction": "up"}}}"#)
                == "map.json: grid.annotation.bottom.direction: \"up\" is not one of: horizontal, along")
        #expect(
            error(#"{"type": "latlong", "annotation": {"precision": 12}}"#)
                == "map.json: grid.annotation.precision: 12 is out of range (0 to 8 decimals on the last unit)")
        #expect(
            error(#"{"type": "latlong", "annotation": {"hemisphere": "left"}}"#)
                == "map.json: grid.annotation.hemisphere: \"left\" is not one of: prefix, suffix, sign, none")
        #expect(
            error(#"{"type": "latlong", "annotation": {"padding": "yes"}}"#)
                == "map.json: grid.annotation.padding: expected true or false, got a string")
    }
}
