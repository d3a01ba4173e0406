import DataSources
import Foundation
import Geodesy
import Testing

/// `ProjectedPlane`, the plane of any CRS a map can be drawn in: positions land where PROJ's
/// `cs2cs` puts them (in metres, whatever the CRS's unit), come back where they started, and
/// its distortion agrees with GeographicLib's GeoConvert for UTM.
@Suite struct ProjectedPlaneTests {
    /// cs2cs from EPSG:4326 (latitude first, as its definition orders it) to `crs`, in the
    /// CRS's own axis order and unit.
    func cs2cs(_ crs: String, _ points: [(lon: Double, lat: Double)]) throws -> [[Double]] {
        try Support.withScratch { folder in
            let input = folder.appendingPathComponent("in.txt").path
            try (points.map { "\($0.lat) \($0.lon)" }.joined(separator: "\n") + "\n")
                .write(toFile: input, atomically: true, encoding: .utf8)
            let output = try Support.run("cs2cs", ["-f", "%.6f", "EPSG:4326", crs, input])
            return output.split(separator: "\n").map { line in
                line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        let crs: String
        let metresPerUnit: Double
        /// Whether cs2cs writes the northing first (the CRS's own order).
        let northFirst: Bool
        /// Longitude, latitude: points in the CRS's area.
        let points: [PlanePoint]
        var description: String { crs }
    }

    static let cases = [
        Case(
            crs: "EPSG:27700", metresPerUnit: 1, northFirst: false,
            points: [PlanePoint(x: -3, y: 56), PlanePoint(x: -0.12, y: 51.5), PlanePoint(x: -5, y: 50.2)]),
        Case(
            crs: "EPSG:3035", metresPerUnit: 1, northFirst: true,
            points: [PlanePoint(x: -8, y: 40), PlanePoint(x: 13.4, y: 52.5), PlanePoint(x: 24, y: 60)]),
        Case(
            crs: "EPSG:2263", metresPerUnit: 1200.0 / 3937.0, northFirst: false,
            points: [PlanePoint(x: -74, y: 40.7), PlanePoint(x: -73.9, y: 40.8), PlanePoint(x: -74.2, y: 40.55)]),
        Case(
            crs: "EPSG:32633", metresPerUnit: 1, northFirst: false,
            points: [PlanePoint(x: 12, y: 52), PlanePoint(x: 15, y: 45), PlanePoint(x: 17.5, y: 60)]),
    ]

    @Test(arguments: cases)
    func projectsWhereCs2csDoes(_ c: Case) throws {
        let crs = c.crs
        let metresPerUnit = c.metresPerUnit
        let northFirst = c.northFirst
        let plane = try ProjectedPlane(crs: crs)
        #expect(abs(plane.metresPerUnit - metresPerUnit) < 1e-12)
        #expect(!plane.isGeographic && !plane.isWebMercator)
        let points = c.points.map { (lon: $0.x, lat: $0.y) }
        let expected = try cs2cs(crs, points)
        for (point, row) in zip(points, expected) {
            let p = plane.project(latitude: point.lat, longitude: point.lon)
            let x = (northFirst ? row[1] : row[0]) * metresPerUnit
            let y = (northFirst ? row[0] : row[1]) * metresPerUnit
            #expect(abs(p.x - x) < 0.001 && abs(p.y - y) < 0.001, "\(crs) \(point): cs2cs \(x), \(y); ours \(p)")
            let back = plane.unproject(p)
            // A 7-parameter datum shift (OSGB36) is not exactly its own inverse: PROJ's own round
            // trip (cs2cs there and back) is off by about 1e-8 degrees, a millimetre.
            #expect(abs(back.longitude - point.lon) < 1e-7 && abs(back.latitude - point.lat) < 1e-7)
            let own = plane.crsCoordinates(p)
            #expect(abs(own.x - x / metresPerUnit) < 1e-6 && abs(own.y - y / metresPerUnit) < 1e-6)
        }
    }

    /// A geographic CRS is drawn as plate carrée at the OGC's 111,319.49 m a degree.
    @Test func geographicIsPlateCarreeInEquatorialMetres() throws {
        let plane = try ProjectedPlane(crs: "EPSG:4326")
        #expect(plane.isGeographic)
        #expect(abs(plane.metresPerUnit - 111_319.490_793_273_57) < 1e-6)
        let p = plane.project(latitude: 50, longitude: 10)
        #expect(abs(p.x - 10 * 111_319.490_793_273_57) < 1e-6 && abs(p.y - 50 * 111_319.490_793_273_57) < 1e-6)
    }

    @Test func webMercatorIsRecognised() throws {
        #expect(try ProjectedPlane(crs: "EPSG:3857").isWebMercator)
        #expect(try !ProjectedPlane(crs: "EPSG:3395").isWebMercator)
    }

    /// Convergence and scale by finite differences match GeoConvert's for UTM 33N.
    @Test func distortionAgreesWithGeoConvert() throws {
        let plane = try ProjectedPlane(crs: "EPSG:32633")
        for (lat, lon) in [(52.0, 12.0), (45.0, 17.5), (60.0, 15.0)] {
            let printed = try Support.withScratch { folder -> String in
                let input = folder.appendingPathComponent("in.txt").path
                try "\(lat) \(lon)\n".write(toFile: input, atomically: true, encoding: .utf8)
                return try Support.run("sh", ["-c", "GeoConvert -c -z 33 -p 6 < \(input)"])
            }
            let values = printed.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
            try #require(values.count == 2, "GeoConvert printed \(printed)")
            let point = plane.unprojectWithDistortion(plane.project(latitude: lat, longitude: lon))
            #expect(abs(point.latitude - lat) < 1e-8 && abs(point.longitude - lon) < 1e-8)
            #expect(
                abs(point.convergence - values[0]) < 1e-4, "convergence \(point.convergence), GeoConvert \(values[0])")
            #expect(abs(point.scale - values[1]) < 1e-6, "scale \(point.scale), GeoConvert \(values[1])")
        }
    }

    /// Points the CRS has no coordinates for come back infinite, not as numbers.
    @Test func farSideOfAnAzimuthalProjectionIsInfinite() throws {
        let plane = try ProjectedPlane(crs: "+proj=ortho +lat_0=50 +lon_0=10 +type=crs")
        let far = plane.project(latitude: -50, longitude: -170)
        #expect(!far.x.isFinite && !far.y.isFinite)
        let outside = plane.unproject(PlanePoint(x: 9e6, y: 9e6))
        #expect(!outside.latitude.isFinite)
    }

    @Test(arguments: [
        ("EPSG:999999", "unknown CRS \"EPSG:999999\""),
        ("EPSG:4978", "\"EPSG:4978\" (EPSG:4978) is a geocentric CRS"),
        ("not a crs", "unknown CRS \"not a crs\""),
    ])
    func unusableCodesSayWhy(code: String, expected: String) {
        #expect {
            _ = try ProjectedPlane(crs: code)
        } throws: { error in
            "\(error)".hasPrefix(expected) && !"\(error)".contains("\n")
        }
    }
}
