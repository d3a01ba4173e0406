import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// Angles as a map's annotation writes them (D°, D°M′, D°M.mm′, D°M′S″, decimal degrees;
/// padding, precision, hemisphere as prefix, suffix or sign), against GeoConvert's own DMS
/// output (`-d -p P`), which pads degrees to 2 and 3 digits and minutes and seconds to 2.
@Suite struct AngleAnnotationTests {
    /// Positions with carries (59.98″ at whole seconds), small and large values, both hemispheres.
    static let positions: [(lat: Double, lon: Double)] = [
        (40.7625, -73.968), (-33.918861, 18.4233), (40.999_994, -73.999_996), (5.008_333_4, 5.1),
        (-0.75, 100.583_333_3), (89.5, -179.05), (51.477_928, -0.001_475), (-45.123_456_7, 170.987_654_3),
        (12.345_678_9, -9.876_543_2), (-71.25, 43.333_3), (64.1355, -21.8954), (35.6895, 139.691_71),
    ]

    /// Each unit and precision with the GeoConvert precision that writes the same thing.
    static let cases: [(unit: DMSUnit, decimals: Int, geoConvert: Int)] = [
        (.degree, 0, -5), (.degree, 1, -4), (.minute, 0, -3), (.minute, 1, -2), (.second, 0, -1), (.second, 1, 0),
        (.second, 2, 1),
    ]

    /// Leading zeros of each component dropped (one digit kept before a point).
    static func unpadded(_ text: String) -> String {
        text.replacingOccurrences(of: #"(^|[°′])0+(?=\d)"#, with: "$1", options: .regularExpression)
    }

    @Test func everyUnitAndPrecisionAsGeoConvertWritesIt() throws {
        var checked = 0
        for c in Self.cases {
            let input = Self.positions.map { "\($0.lat) \($0.lon)" }
            let output = try GeoConvert.run(["-d", "-p", String(c.geoConvert)], input)
            for (p, line) in zip(Self.positions, output) {
                let fields = line.split(separator: " ")
                try #require(fields.count == 2, "GeoConvert: \(line)")
                for (value, kind, field) in [(p.lat, AngleKind.latitude, fields[0]), (p.lon, .longitude, fields[1])] {
                    let reference = GeoConvert.annotation(fromDMS: field)
                    let padded = AngleAnnotationStyle(
                        unit: c.unit, decimals: c.decimals, padding: true, hemisphere: .suffix)
                    // Zero and 180° carry no hemisphere here; GeoConvert writes one.
                    let written = AngleFormat.annotation(value, kind: kind, style: padded)
                    guard written.hasSuffix(" " + reference.letter) else {
                        #expect(!written.contains(" "), "\(value): \(written) vs GeoConvert \(field)")
                        continue
                    }
                    #expect(
                        written == reference.text + " " + reference.letter, "GeoConvert -p \(c.geoConvert): \(field)")
                    var style = padded
                    style.hemisphere = .prefix
                    #expect(
                        AngleFormat.annotation(value, kind: kind, style: style) == reference.letter + " "
                            + reference.text)
                    style.hemisphere = .sign
                    let negative = reference.letter == "S" || reference.letter == "W"
                    #expect(
                        AngleFormat.annotation(value, kind: kind, style: style)
                            == (negative ? "−" : "") + reference.text)
                    style.hemisphere = .none
                    #expect(AngleFormat.annotation(value, kind: kind, style: style) == reference.text)
                    style.padding = false
                    style.hemisphere = .suffix
                    #expect(
                        AngleFormat.annotation(value, kind: kind, style: style)
                            == Self.unpadded(reference.text) + " " + reference.letter, "unpadded \(field)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 150)
    }

    /// D°M.mm′: minutes to two decimals, from GeoConvert's seconds to four (`-p 3`).
    @Test func decimalMinutesFromGeoConvertSeconds() throws {
        let input = Self.positions.map { "\($0.lat) \($0.lon)" }
        let output = try GeoConvert.run(["-:", "-p", "3"], input)
        let style = AngleAnnotationStyle(unit: .minute, decimals: 2, padding: true, hemisphere: .suffix)
        for (p, line) in zip(Self.positions, output) {
            let fields = line.split(separator: " ")
            try #require(fields.count == 2, "GeoConvert: \(line)")
            for (value, kind, field) in [(p.lat, AngleKind.latitude, fields[0]), (p.lon, .longitude, fields[1])] {
                // `40:45:45.0000N`: degrees, minutes, seconds, hemisphere.
                let letter = String(field.last!)
                let parts = field.dropLast().split(separator: ":").map(String.init)
                try #require(parts.count == 3)
                let minutes = Double(parts[1])! + Double(parts[2])! / 60
                var minuteText = String(format: "%05.2f", minutes)
                var degreeText = parts[0]
                if minuteText == "60.00" {
                    // 59.996′ carries into the degrees.
                    minuteText = "00.00"
                    degreeText = String(format: "%0\(parts[0].count)d", Int(parts[0])! + 1)
                }
                #expect(
                    AngleFormat.annotation(value, kind: kind, style: style)
                        == "\(degreeText)°\(minuteText)′ \(letter)", "GeoConvert \(field)")
            }
        }
    }

    /// The equator, the prime meridian and the antimeridian have no hemisphere and no sign;
    /// a value that rounds to zero neither.
    @Test func zeroAndTheAntimeridianHaveNoHemisphere() {
        for hemisphere in HemisphereStyle.allCases {
            let style = AngleAnnotationStyle(unit: .minute, decimals: 0, padding: true, hemisphere: hemisphere)
            #expect(AngleFormat.annotation(0, kind: .latitude, style: style) == "00°00′")
            #expect(AngleFormat.annotation(-0.001, kind: .longitude, style: style) == "000°00′")
            #expect(AngleFormat.annotation(-180, kind: .longitude, style: style) == "180°00′")
        }
    }

    /// The decimals a family of lines needs: every multiple of the step written exactly.
    @Test func automaticDecimalsWriteTheStepExactly() {
        #expect(AngleAnnotationStyle.decimals(toWrite: 30 / 3600.0, in: .minute, limit: 2) == 1)
        #expect(AngleAnnotationStyle.decimals(toWrite: 1 / 60.0, in: .minute, limit: 2) == 0)
        #expect(AngleAnnotationStyle.decimals(toWrite: 0.05, in: .degree, limit: 4) == 2)
        #expect(AngleAnnotationStyle.decimals(toWrite: 10 / 3600.0, in: .minute, limit: 2) == 2)
        #expect(AngleAnnotationStyle.decimals(toWrite: 5 / 3600.0, in: .second, limit: 2) == 0)
    }
}
