import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// Decimal degrees and DMS, written and read, against GeoConvert.
@Suite struct AngleVectorTests {
    @Test func formattingMatchesGeoConvert() throws {
        let rows = try GeoConvertVectors.rows("dd-dms.tsv")
        #expect(rows.count >= 10_000)
        var mismatches: [String] = []
        for row in rows {
            let parsed = try CoordinateText.parse(row[0], as: .dd)
            let p = Int(row[3])!
            // GeoConvert writes `d` where we write `°`; otherwise identical.
            let checks: [(CoordinateFormat, Int, String)] = [
                (.dd, 9, row[1]), (.dms, 0, row[2]), (.dd, p, row[4]), (.dms, p, row[5]),
            ]
            for (format, precision, expected) in checks {
                let got = try CoordinateText.format(parsed, as: format, precision: precision)
                if got != expected.replacingOccurrences(of: "d", with: "°") {
                    mismatches.append("\(row[0]) \(format) p\(precision): \(got) != \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func parsingMatchesGeoConvert() throws {
        let rows = try GeoConvertVectors.rows("dms-dd.tsv")
        var mismatches: [String] = []
        for row in rows {
            let fields = row[0].split(separator: " ")
            let half = fields.count / 2
            let p = try AngleParser.parse(
                latitude: fields[..<half].joined(separator: " "),
                longitude: fields[half...].joined(separator: " "))
            let (lat, lon) = GeoConvertVectors.position(row[1])
            // GeoConvert printed 11 decimals.
            if abs(p.latitude - lat) > 6e-12 || abs(p.longitude - lon) > 6e-12 {
                mismatches.append("\(row[0]): \(p) != \(row[1])")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func parsesTheUsualForms() throws {
        #expect(try AngleParser.parse("45°30'15.5\"N").degrees == 45 + (30 + 15.5 / 60) / 60)
        #expect(try AngleParser.parse("45°30'15.5\"N").kind == .latitude)
        #expect(try AngleParser.parse("45.504306").degrees == 45.504306)
        #expect(try AngleParser.parse("-75 30 15").degrees == -(75 + (30 + 15.0 / 60) / 60))
        #expect(try AngleParser.parse("75d30'15\"W").degrees == -(75 + (30 + 15.0 / 60) / 60))
        #expect(try AngleParser.parse("W75:15").degrees == -75.25)
        #expect(try AngleParser.parse("12°30′45″E").degrees == 12 + (30 + 45.0 / 60) / 60)
        #expect(try AngleParser.parse("10d20'30''").degrees == 10 + (20 + 30.0 / 60) / 60)
        let swapped = try AngleParser.parse(latitude: "E44.4", longitude: "N33.3")
        #expect(swapped == GeoPosition(latitude: 33.3, longitude: 44.4))
        for bad in ["", "N", "45°61'", "45°30'60\"", "45.5°30'", "4x5", "1:2:3:4", "N45 N46"] {
            #expect(throws: GeodesyError.self, "\(bad)") { try AngleParser.parse(bad) }
        }
        #expect(throws: GeodesyError.self) { try AngleParser.parse(latitude: "N10", longitude: "S10") }
        #expect(throws: GeodesyError.latitudeOutOfRange(91)) { try AngleParser.parse(latitude: "91", longitude: "0") }
    }

    @Test func carryNeverWritesSixty() {
        // 59.99999" rounds up into the next minute, and 59'59.96" into the next degree.
        let a = 45 + 29.0 / 60 + 59.99999 / 3600
        #expect(AngleFormat.dms(a, kind: .latitude, trailing: .second, decimals: 1) == "45°30'00.0\"N")
        let b = -(75 + 59.0 / 60 + 59.96 / 3600)
        #expect(AngleFormat.dms(b, kind: .longitude, trailing: .second, decimals: 1) == "076°00'00.0\"W")
        #expect(AngleFormat.dms(b, kind: .longitude, trailing: .minute, decimals: 0) == "076°00'W")
        #expect(AngleFormat.dms(b, kind: .longitude, trailing: .second, decimals: 2) == "075°59'59.96\"W")
        #expect(AngleFormat.dms(b, kind: .plain, trailing: .second) == "-76°00'00\"")
    }

    @Test func compactLabels() {
        #expect(AngleFormat.dms(45.5, kind: .latitude, trailing: .second, style: .compact) == "45°30'N")
        #expect(AngleFormat.dms(-(75 + 15.0 / 60 + 30.0 / 3600), kind: .longitude, style: .compact) == "75°15'30\"W")
        #expect(AngleFormat.dms(-45, kind: .latitude, style: .compact) == "45°S")
        #expect(AngleFormat.dms(10 + 30.0 / 3600, kind: .latitude, style: .compact) == "10°00'30\"N")
        #expect(AngleFormat.dms(0, kind: .latitude, style: .compact) == "0°")
        #expect(AngleFormat.dms(-180, kind: .longitude, style: .compact) == "180°")
        #expect(AngleFormat.dms(10.25 + 1.5 / 3600, kind: .latitude, decimals: 2, style: .compact) == "10°15'01.5\"N")
        #expect(AngleFormat.decimalDegrees(45.5, kind: .latitude, decimals: 4, style: .compact) == "45.5°N")
        // -75.25 is exact in binary: the tie rounds to even, as printf does.
        #expect(AngleFormat.decimalDegrees(-75.25, kind: .longitude, decimals: 1, style: .compact) == "75.2°W")
        #expect(AngleFormat.decimalDegrees(-75.25, kind: .longitude, decimals: 3) == "75.250°W")
        #expect(AngleFormat.decimalDegrees(0, kind: .latitude, decimals: 2, style: .compact) == "0°")
        #expect(AngleFormat.decimalDegrees(-75.25, kind: .plain, decimals: 3) == "-75.250")
    }
}
