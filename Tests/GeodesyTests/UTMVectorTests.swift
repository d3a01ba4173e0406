import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// UTM/UPS against GeoConvert: eastings and northings within 1 mm (in fact they agree to
/// the nanometre), zones and hemispheres identical.
@Suite struct UTMVectorTests {
    @Test func forwardMatchesGeoConvert() throws {
        let rows = try GeoConvertVectors.rows("dd-utm.tsv")
        #expect(rows.count >= 10_000)
        var mismatches: [String] = []
        var maxError = 0.0
        for row in rows {
            let (lat, lon) = GeoConvertVectors.position(row[0])
            let c = try UTM.forward(GeoPosition(latitude: lat, longitude: lon))
            let expected = GeoConvertVectors.utm(row[1])
            let error = Swift.max(abs(c.easting - expected.easting), abs(c.northing - expected.northing))
            maxError = Swift.max(maxError, error)
            if c.zone != expected.zone || c.isNorth != expected.north || error > 0.001 {
                mismatches.append("\(row[0]): \(c) != \(row[1])")
            }
            // The text at the row's precision (-5...9) is GeoConvert's, digit for digit.
            let text = CoordinateText.utmText(c, precision: Int(row[2])!)
            if text != row[3] { mismatches.append("\(row[0]) p\(row[2]): \(text) != \(row[3])") }
            // The standard zone agrees on its own, too.
            if UTM.standardZone(latitude: lat, longitude: lon) != expected.zone { mismatches.append("zone \(row[0])") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        #expect(maxError < 1e-6, "largest difference \(maxError) m")
    }

    @Test func reverseMatchesGeoConvert() throws {
        let rows = try GeoConvertVectors.rows("utm-dd.tsv")
        #expect(rows.count >= 10_000)
        var mismatches: [String] = []
        for row in rows {
            let parsed = try CoordinateText.parse(row[0], as: .utm)
            let (lat, lon) = GeoConvertVectors.position(row[1])
            if abs(parsed.position.latitude - lat) > 1e-11 || abs(parsed.position.longitude - lon) > 1e-11 {
                mismatches.append("\(row[0]): \(parsed.position) != \(row[1])")
            }
            // GeoConvert moves a northing written in the wrong hemisphere's numbering.
            let expected = GeoConvertVectors.utm(row[2])
            if parsed.utm.zone != expected.zone || parsed.utm.isNorth != expected.north
                || abs(parsed.utm.northing - expected.northing) > 0.001
            {
                mismatches.append("\(row[0]): \(parsed.utm) != \(row[2])")
            }
            let mgrs = (try? MGRS.reference(parsed.utm, latitude: parsed.position.latitude, digits: 11).mgrs) ?? "ERROR"
            if mgrs != row[3] { mismatches.append("\(row[0]): \(mgrs) != \(row[3])") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test func forcedZoneMatchesGeoConvert() throws {
        // GeoConvert -z: neighbouring zones, UPS near the poles, the other hemisphere near
        // the equator; positions too far out are errors in both.
        let rows = try GeoConvertVectors.rows("zone-utm.tsv")
        var mismatches: [String] = []
        var converted = 0
        for row in rows {
            let (lat, lon) = GeoConvertVectors.position(row[0])
            let (zone, north) = try zoneOption(row[1])
            let position = GeoPosition(latitude: lat, longitude: lon)
            do {
                let c = try UTM.forward(position, zone: zone, north: north)
                converted += 1
                guard row[2] != "ERROR" else {
                    mismatches.append("\(row[0]) -z \(row[1]): \(c) but GeoConvert rejects it")
                    continue
                }
                let e = GeoConvertVectors.utm(row[2])
                if c.zone != e.zone || c.isNorth != e.north
                    || abs(c.easting - e.easting) > 0.001 || abs(c.northing - e.northing) > 0.001
                {
                    mismatches.append("\(row[0]) -z \(row[1]): \(c) != \(row[2])")
                    continue
                }
                let mgrs = (try? MGRS.reference(c, latitude: lat, digits: 11).mgrs) ?? "ERROR"
                if mgrs != row[3] { mismatches.append("\(row[0]) -z \(row[1]): \(mgrs) != \(row[3])") }
            } catch {
                if row[2] != "ERROR" { mismatches.append("\(row[0]) -z \(row[1]): \(error) but \(row[2])") }
            }
        }
        #expect(converted > 1000)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    private func zoneOption(_ text: String) throws -> (Int, Bool?) {
        if let last = text.last, last.isLetter {
            let z = try CoordinateText.parseZone(text)
            return (z.zone, z.north)
        }
        return (Int(text)!, nil)
    }

    @Test func hemisphereOfZeroAndPoles() throws {
        // -0 is south (northing 10,000 km), +0 north, as GeoConvert does.
        let south = try UTM.forward(GeoPosition(latitude: -0.0, longitude: 3))
        #expect(south == UTMCoordinate(zone: 31, isNorth: false, easting: 500_000, northing: 10_000_000))
        #expect(try MGRS.encode(GeoPosition(latitude: -0.0, longitude: 3)) == "31MEV0000099999")
        #expect(try MGRS.encode(GeoPosition(latitude: 0, longitude: 3)) == "31NEA0000000000")
        let pole = try UTM.forward(GeoPosition(latitude: 90, longitude: 0))
        #expect(pole == UTMCoordinate(zone: 0, isNorth: true, easting: 2_000_000, northing: 2_000_000))
        #expect(throws: GeodesyError.latitudeOutOfRange(91)) {
            try UTM.forward(GeoPosition(latitude: 91, longitude: 0))
        }
        #expect(throws: GeodesyError.self) { try UTM.forward(GeoPosition(latitude: 33.3, longitude: 44.4), zone: 30) }
        #expect(throws: GeodesyError.self) { try UTM.forward(GeoPosition(latitude: 33.3, longitude: 44.4), zone: 0) }
        #expect(throws: GeodesyError.self) {
            try UTM.reverse(UTMCoordinate(zone: 38, isNorth: true, easting: 2e6, northing: 0))
        }
    }
}
