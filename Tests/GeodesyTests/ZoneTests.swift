import Foundation
import TestSupport
import Testing

@testable import Geodesy

/// Latitude bands, zone extents with the Norway/Svalbard exceptions, square letters.
@Suite struct ZoneTests {
    @Test func latitudeBands() {
        #expect(LatitudeBand.all.map(\.letter) == Array("CDEFGHJKLMNPQRSTUVWX"))
        #expect(LatitudeBand.containing(latitude: -80)?.letter == "C")
        #expect(LatitudeBand.containing(latitude: -80.0001) == nil)
        #expect(LatitudeBand.containing(latitude: -0.0001)?.letter == "M")
        #expect(LatitudeBand.containing(latitude: 0)?.letter == "N")
        #expect(LatitudeBand.containing(latitude: 71.9999)?.letter == "W")
        #expect(LatitudeBand.containing(latitude: 72)?.letter == "X")
        #expect(LatitudeBand.containing(latitude: 84)?.letter == "X")
        #expect(LatitudeBand.containing(latitude: 84.0001) == nil)
        #expect(LatitudeBand(letter: "x")?.latitudeRange == 72...84)
        #expect(LatitudeBand(letter: "C")?.latitudeRange == -80 ... -72)
        #expect(LatitudeBand(letter: "V")?.latitudeRange == 56...64)
        #expect(LatitudeBand(letter: "I") == nil && LatitudeBand(letter: "O") == nil)
        // Every band's range contains the latitudes assigned to it.
        for lat in stride(from: -80.0, through: 84, by: 0.37) {
            let band = LatitudeBand.containing(latitude: lat)!
            #expect(band.latitudeRange.contains(lat))
        }
    }

    @Test func exceptionZones() {
        #expect(UTM.standardZone(latitude: 60, longitude: 2.9999) == 31)
        #expect(UTM.standardZone(latitude: 60, longitude: 3) == 32)
        #expect(UTM.standardZone(latitude: 60, longitude: 11.9999) == 32)
        #expect(UTM.standardZone(latitude: 55.9999, longitude: 3) == 31)
        #expect(UTM.standardZone(latitude: 64, longitude: 3) == 31)
        #expect(UTM.standardZone(latitude: 78, longitude: 8.9999) == 31)
        #expect(UTM.standardZone(latitude: 78, longitude: 9) == 33)
        #expect(UTM.standardZone(latitude: 78, longitude: 21) == 35)
        #expect(UTM.standardZone(latitude: 78, longitude: 33) == 37)
        #expect(UTM.standardZone(latitude: 78, longitude: 42) == 38)
        #expect(UTM.standardZone(latitude: 84, longitude: 10) == UTM.upsZone)
        #expect(UTM.standardZone(latitude: -80.0001, longitude: 10) == UTM.upsZone)
        #expect(UTM.standardZone(latitude: -80, longitude: 10) == 32)
        #expect(UTM.standardZone(latitude: 10, longitude: 180) == 1)
        #expect(UTM.standardZone(latitude: 10, longitude: -180) == 1)
        #expect(UTM.standardZone(latitude: 10, longitude: 179.9999) == 60)
        #expect(UTM.standardZone(latitude: .nan, longitude: 0) == nil)

        let v = LatitudeBand(letter: "V")!
        let x = LatitudeBand(letter: "X")!
        #expect(UTM.longitudeRange(zone: 31, band: v) == 0...3)
        #expect(UTM.longitudeRange(zone: 32, band: v) == 3...12)
        #expect(UTM.longitudeRange(zone: 33, band: v) == 12...18)
        #expect(UTM.longitudeRange(zone: 31, band: x) == 0...9)
        #expect(UTM.longitudeRange(zone: 32, band: x) == nil)
        #expect(UTM.longitudeRange(zone: 37, band: x) == 33...42)
        #expect(UTM.longitudeRange(zone: 38, band: x) == 42...48)
        #expect(UTM.longitudeRange(zone: 1, band: LatitudeBand(letter: "C")!) == -180 ... -174)
    }

    /// The extents agree with the zone that a position gets: sweep the UTM area.
    @Test func extentsContainTheirPositions() {
        for lat in stride(from: -79.75, to: 84, by: 0.5) {
            let band = LatitudeBand.containing(latitude: lat)!
            for lon in stride(from: -179.8, to: 180, by: 0.4) {
                let zone = UTM.standardZone(latitude: lat, longitude: lon)!
                guard let range = UTM.longitudeRange(zone: zone, band: band), range.contains(lon) else {
                    Issue.record(
                        "\(lat) \(lon): zone \(zone) extent \(String(describing: UTM.longitudeRange(zone: zone, band: band)))"
                    )
                    return
                }
            }
        }
    }

    @Test func squareLettersMatchGeoConvert() throws {
        let mgrs = try GeoConvertVectors.rows("dd-mgrs.tsv")
        let utm = try GeoConvertVectors.rows("dd-utm.tsv")
        var mismatches: [String] = []
        for (m, u) in zip(mgrs, utm) {
            let square = m[2]  // -p -5: grid zone and square letters
            let c = GeoConvertVectors.utm(u[1])
            let letters =
                c.zone == 0
                ? MGRS.upsSquareLetters(north: c.north, easting: c.easting, northing: c.northing)
                : MGRS.squareLetters(zone: c.zone, easting: c.easting, northing: c.northing)
            // GeoConvert nudges a value exactly on the upper edge down; skip those few.
            if c.easting == 900_000 || c.northing == 10_000_000 || c.northing == 9_500_000 { continue }
            guard let letters else {
                mismatches.append("\(square): none")
                continue
            }
            if String([letters.column, letters.row]) != String(square.suffix(2)) {
                mismatches.append("\(square): \(letters)")
            }
            if c.zone != 0, let band = LatitudeBand(letter: square.dropLast(2).last!) {
                if MGRS.gridZoneDesignator(zone: c.zone, band: band) != String(square.dropLast(2)) {
                    mismatches.append("gzd \(square)")
                }
            } else if c.zone == 0 {
                let (lat, lon) = GeoConvertVectors.position(m[0])
                // At the poles, and within rounding of the 0°/180° meridian, the side is
                // decided by the last bit of the easting; skip those.
                let offMeridian = Swift.min(abs(lon), abs(180 - abs(lon)))
                if abs(lat) == 90 || (offMeridian > 0 && offMeridian < 1e-6) { continue }
                if MGRS.upsGridZoneDesignator(north: lat > 0, longitude: lon) != square.first! {
                    mismatches.append("ups gzd \(m[0]) \(square)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
        #expect(MGRS.squareLetters(zone: 18, easting: 50_000, northing: 0) == nil)
    }
}
