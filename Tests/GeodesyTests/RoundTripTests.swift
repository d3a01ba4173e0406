import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// DD → MGRS → DD: the reference read back is the square that holds the position.
@Suite struct RoundTripTests {
    @Test func mgrsSquareContainsThePosition() throws {
        let rows = try GeoConvertVectors.rows("positions.txt")
        var failures: [String] = []
        for (i, row) in rows.enumerated() where i % 2 == 0 {
            let (lat, lon) = GeoConvertVectors.position(row[0])
            let position = GeoPosition(latitude: lat, longitude: lon)
            let utm = try UTM.forward(position)
            for digits in [0, 1, 2, 3, 4, 5, 8, 11] {
                let text = try MGRS.encode(position, digits: digits)
                let corner = try MGRS.decode(text, centre: false).coordinate
                let centre = try MGRS.decode(text).coordinate
                let size = 100_000 / pow(10, Double(digits))
                // Same zone; compare in the reference's hemisphere numbering.
                var northing = utm.northing
                if corner.isNorth != utm.isNorth { northing += corner.isNorth ? -1e7 : 1e7 }
                let de = utm.easting - corner.easting
                let dn = northing - corner.northing
                // The square is closed below, open above; GeoConvert's nudges on exact upper
                // edges (a few nanometres) are allowed for.
                if corner.zone != utm.zone || !(de >= 0 && de < size + 1e-8 && dn >= 0 && dn < size + 1e-8) {
                    failures.append("\(row[0]) \(text): \(de) \(dn)")
                    continue
                }
                #expect(abs(centre.easting - corner.easting - size / 2) < 1e-9)
                // The centre's latitude/longitude lie within the square's size of the position
                // (scale is within 0.1% of 1 over a zone; longitude shrinks by cos φ).
                let back = try UTM.reverse(centre)
                let dLat = abs(back.latitude - lat) * 111_000
                let dLon = abs(AngleMath.difference(lon, back.longitude)) * 111_400 * cos(lat * .pi / 180)
                if abs(lat) < 89.9 && (dLat > size * 1.01 + 1e-6 || dLon > size * 1.01 + 1e-6) {
                    failures.append("\(row[0]) \(text): back at \(back)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5))")
    }

    @Test func utmRoundTrip() throws {
        for row in try GeoConvertVectors.rows("positions.txt") {
            let (lat, lon) = GeoConvertVectors.position(row[0])
            let back = try UTM.reverse(UTM.forward(GeoPosition(latitude: lat, longitude: lon)))
            #expect(abs(back.latitude - lat) < 1e-11, "\(row[0])")
            if abs(lat) < 90 {
                #expect(abs(AngleMath.difference(lon, back.longitude)) < 1e-9 / cos(lat * .pi / 180), "\(row[0])")
            }
        }
    }

    @Test func errorsPrintAsOneLine() {
        let errors: [GeodesyError] = [
            .latitudeOutOfRange(91), .invalidZone(61),
            .outsideZone(latitude: 33.3, longitude: 44.4, zone: 30),
            .coordinateOutOfRange(axis: "easting", value: 2e6, system: "UTM N hemisphere", range: 0...1e6),
            .invalidGridReference("38SMB4", reason: "odd number of digits (1)"),
        ]
        #expect(
            errors.map(\.description) == [
                "latitude 91 is not in [-90, 90]",
                "UTM zone 61 is not in 1...60",
                "latitude 33.3, longitude 44.4 is out of range for UTM zone 30",
                "easting 2000 km is not in UTM N hemisphere range [0 km, 1000 km]",
                "grid reference '38SMB4': odd number of digits (1)",
            ])
    }
}

/// Input that is out of range or not a number is an error, never a crash.
@Suite struct BadInputTests {
    @Test func nonFiniteAndHugeValuesThrowOrGiveNil() {
        for (lat, lon) in [(Double.nan, 0.0), (0, .nan), (0, .infinity), (45, -.infinity), (.infinity, 0), (1e300, 0)] {
            #expect(throws: GeodesyError.self, "\(lat) \(lon)") {
                try UTM.forward(GeoPosition(latitude: lat, longitude: lon))
            }
            #expect(throws: GeodesyError.self, "\(lat) \(lon)") {
                try MGRS.encode(GeoPosition(latitude: lat, longitude: lon))
            }
        }
        #expect(UTM.standardZone(latitude: 10, longitude: .infinity) == nil)
        let c = UTMCoordinate(zone: 31, isNorth: true, easting: 500_000, northing: 1_000_000)
        #expect(throws: GeodesyError.self) { try MGRS.reference(c, latitude: .nan) }
        #expect(throws: GeodesyError.self) {
            try MGRS.reference(UTMCoordinate(zone: 31, isNorth: true, easting: .nan, northing: 0))
        }
        #expect(throws: GeodesyError.self) {
            try UTM.reverse(UTMCoordinate(zone: 31, isNorth: true, easting: 1e300, northing: 0))
        }
        #expect(MGRS.squareLetters(zone: 31, easting: 500_000, northing: 1e300) == nil)
        #expect(MGRS.upsSquareLetters(north: true, easting: -1e300, northing: 2e6) == nil)
        #expect(throws: GeodesyError.self) { try MGRS.decode("99999999999999999999999S") }
        #expect(throws: GeodesyError.self) { try CoordinateText.parse("inf nan", as: nil) }
        #expect(throws: GeodesyError.self) { try CoordinateText.parse("31n 1e400 5", as: nil) }
    }
}
