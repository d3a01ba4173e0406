import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// MGRS and USNG against GeoConvert: strings must be identical at every precision.
@Suite struct MGRSVectorTests {
    @Test func encodeMatchesGeoConvertAtEveryPrecision() throws {
        let rows = try GeoConvertVectors.rows("dd-mgrs.tsv")
        #expect(rows.count >= 10_000)
        var mismatches: [String] = []
        for row in rows {
            let (lat, lon) = GeoConvertVectors.position(row[0])
            for p in -6...6 {
                let expected = row[p + 7]
                let got: String
                do { got = try MGRS.encode(GeoPosition(latitude: lat, longitude: lon), digits: p + 5) } catch {
                    got = "ERROR"
                }
                if got != expected { mismatches.append("\(row[0]) p\(p): \(got) != \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func usngIsMGRSWithSpaces() throws {
        let rows = try GeoConvertVectors.rows("dd-mgrs.tsv")
        var mismatches: [String] = []
        for row in rows.prefix(3000) {
            let (lat, lon) = GeoConvertVectors.position(row[0])
            for p in [-6, -5, -1, 0, 6] {
                let usng = try USNG.encode(GeoPosition(latitude: lat, longitude: lon), digits: p + 5)
                // Expected: GeoConvert's MGRS with a space after the grid zone, the square letters
                // and the easting digits.
                let mgrs = row[p + 7]
                let gzdLength = mgrs.first!.isNumber ? 3 : 1
                var expected = String(mgrs.prefix(gzdLength))
                let rest = mgrs.dropFirst(gzdLength)
                if !rest.isEmpty {
                    let digits = rest.dropFirst(2)
                    expected += " " + rest.prefix(2)
                    if !digits.isEmpty {
                        expected += " " + digits.prefix(digits.count / 2) + " " + digits.suffix(digits.count / 2)
                    }
                }
                if usng != expected { mismatches.append("\(row[0]) p\(p): \(usng) != \(expected)") }
                // And it reads back to the same square as the MGRS form.
                let a = try USNG.decode(usng)
                let b = try MGRS.decode(mgrs)
                if a.coordinate != b.coordinate || a.digits != b.digits { mismatches.append("decode \(usng)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func decodeGivesGeoConvertsSquareCentre() throws {
        let rows = try GeoConvertVectors.rows("mgrs-dd.tsv")
        #expect(rows.count >= 10_000)
        var mismatches: [String] = []
        var maxMetres = 0.0
        var maxDegrees = 0.0
        for row in rows {
            let (coordinate, _) = try MGRS.decode(row[0])
            let expected = GeoConvertVectors.utm(row[2])
            if coordinate.zone != expected.zone || coordinate.isNorth != expected.north {
                mismatches.append("\(row[0]): zone \(coordinate.zone)\(coordinate.isNorth)")
            }
            let dm = Swift.max(abs(coordinate.easting - expected.easting), abs(coordinate.northing - expected.northing))
            maxMetres = Swift.max(maxMetres, dm)
            let position = try UTM.reverse(coordinate)
            let (lat, lon) = GeoConvertVectors.position(row[1])
            let dd = Swift.max(abs(position.latitude - lat), abs(position.longitude - lon))
            maxDegrees = Swift.max(maxDegrees, dd)
            if dm > 0.001 || dd > 1e-11 { mismatches.append("\(row[0]): \(coordinate) \(position)") }
            // Re-encoding the centre in the same zone gives GeoConvert's MGRS (-p 6) again.
            let again = try MGRS.reference(coordinate, latitude: position.latitude, digits: 11).mgrs
            if again != row[3] { mismatches.append("\(row[0]): re-encoded \(again) != \(row[3])") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        #expect(maxMetres <= 0.001)
        #expect(maxDegrees <= 1e-11)
    }

    @Test func gridZoneAloneDecodesToARepresentativePoint() throws {
        // GeoConvert: 38S -> 38n 500000 4000000; 31V uses 4°E's square column; A -> 86.4°S 90°W.
        let s = try MGRS.decode("38S")
        #expect(s.coordinate == UTMCoordinate(zone: 38, isNorth: true, easting: 500_000, northing: 4_000_000))
        #expect(s.digits == -1)
        #expect(try MGRS.decode("31V").coordinate.easting == 400_000)
        let a = try MGRS.position("A")
        #expect(abs(a.latitude - -86.39831) < 5e-6 && a.longitude == -90)
        #expect(
            try MGRS.decode("Z").coordinate
                == UTMCoordinate(zone: 0, isNorth: true, easting: 2_400_000, northing: 2_000_000))
    }

    @Test func badReferencesAreRejectedWithAReason() {
        for text in ["38SMB4", "61SMB", "38IMB", "38SMI", "38SIB", "Q", "AAA", "ZZZ", "38SMB4488x", "", "123S"] {
            #expect(throws: GeodesyError.self, "\(text)") { try MGRS.decode(text) }
        }
        do {
            _ = try MGRS.decode("38SMB4")
        } catch {
            #expect(error.description == "grid reference '38SMB4': odd number of digits (1)")
        }
        #expect(throws: GeodesyError.self) { try USNG.decode("18S UJ 2348 064") }
    }

    @Test func digitsAreTruncatedNeverRounded() throws {
        // A point 0.9 m east and north of a 1 m corner stays in that metre's square.
        let corner = UTMCoordinate(zone: 18, isNorth: true, easting: 323_486, northing: 4_306_483)
        let near = UTMCoordinate(zone: 18, isNorth: true, easting: 323_486.9, northing: 4_306_483.9)
        let lat = UTM.unproject(near).latitude
        #expect(try MGRS.reference(near, latitude: lat, digits: 5).mgrs == "18SUJ2348606483")
        #expect(try MGRS.reference(corner, digits: 5).mgrs == "18SUJ2348606483")
        #expect(try MGRS.reference(near, latitude: lat, digits: 3).mgrs == "18SUJ234064")
        #expect(try MGRS.reference(near, latitude: lat, digits: 0).mgrs == "18SUJ")
        #expect(try MGRS.reference(near, latitude: lat, digits: -1).mgrs == "18S")
        #expect(throws: GeodesyError.self) { try MGRS.reference(near, digits: 12) }
    }
}
