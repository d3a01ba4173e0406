import Foundation
import MapModel
import Testing

@testable import DataSources

/// Our conversion of a source's coordinates into Web Mercator metres agrees with PROJ's own
/// command-line tool, cs2cs, to a millimetre.
@Suite struct ReprojectionTests {
    /// Converts "x y" lines with cs2cs from `crs` to EPSG:3857.
    func cs2cs(_ crs: String, _ points: [(Double, Double)], authorityOrder: Bool = false) throws -> [(Double, Double)] {
        try Support.withScratch { folder in
            let input = folder.appendingPathComponent("in.txt").path
            // cs2cs reads the CRS's own axis order: latitude first for EPSG's geographic CRSs.
            let lines = points.map { authorityOrder ? "\($0.1) \($0.0)" : "\($0.0) \($0.1)" }
            try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
            let output = try Support.run("cs2cs", ["-f", "%.6f", crs, "EPSG:3857", input])
            return output.split(separator: "\n").map { line in
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
                return (fields[0], fields[1])
            }
        }
    }

    func ours(_ crs: String, _ points: [(Double, Double)]) throws -> [(Double, Double)] {
        let projector = try MercatorProjector(try SourceCRS(crs))
        var coordinates = points.flatMap { [$0.0, $0.1] }
        try projector.toWebMercator(&coordinates)
        return (0..<points.count).map { (coordinates[2 * $0], coordinates[2 * $0 + 1]) }
    }

    /// A grid of points over a box of the CRS (in its traditional order: easting, northing).
    func grid(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [(Double, Double)] {
        (0...4).flatMap { i in
            (0...4).map { j in (minX + (maxX - minX) * Double(i) / 4, minY + (maxY - minY) * Double(j) / 4) }
        }
    }

    @Test(arguments: [
        // New York Long Island state plane, US survey feet.
        ("EPSG:2263", 900_000.0, 110_000.0, 1_070_000.0, 280_000.0, false),
        // British National Grid (OSGB36: a datum shift to WGS84).
        ("EPSG:27700", 100_000, 10_000, 650_000, 1_200_000, false),
        // ETRS89 Lambert azimuthal equal-area over Europe (northing first in EPSG).
        ("EPSG:3035", 2_600_000, 1_500_000, 6_500_000, 5_400_000, true),
        // UTM 33N.
        ("EPSG:32633", 300_000, 4_000_000, 700_000, 7_000_000, false),
        // ETRS89 geographic: latitude first in EPSG, longitude first as OGR hands it over.
        ("EPSG:4258", -10, 36, 30, 70, true),
    ])
    /// Points are given to us in GIS order (easting or longitude first), and to cs2cs in the
    /// CRS's own order when it puts the northing first.
    func agreesWithCs2cs(crs: String, minX: Double, minY: Double, maxX: Double, maxY: Double, northFirst: Bool) throws {
        let points = grid(minX, minY, maxX, maxY)
        let expected = try cs2cs(crs, points, authorityOrder: northFirst)
        let actual = try ours(crs, points)
        #expect(expected.count == points.count)
        for (e, a) in zip(expected, actual) {
            #expect(abs(e.0 - a.0) < 0.001 && abs(e.1 - a.1) < 0.001, "\(crs): cs2cs \(e), ours \(a)")
        }
    }

    /// The Shapefile's vertices, read through its .prj, land where cs2cs puts the same vertices.
    @Test func shapefileVerticesAgreeWithCs2cs() throws {
        try Support.withScratch { folder in
            let shp = folder.appendingPathComponent("b.shp").path
            try Support.run("ogr2ogr", ["-t_srs", "EPSG:2263", shp, Support.boroughs])
            // The raw vertices in feet, as ogr2ogr wrote them (WKT text, full precision).
            let csv = folder.appendingPathComponent("b.csv").path
            try Support.run("ogr2ogr", ["-f", "CSV", "-lco", "GEOMETRY=AS_WKT", csv, shp])
            // Each row starts with its geometry as quoted WKT; the attributes follow it.
            let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst()
            let numbers = rows.flatMap { row in
                row.split(separator: "\"")[0].split(whereSeparator: { !"0123456789.-".contains($0) })
                    .compactMap { Double($0) }
            }
            var raw: [(Double, Double)] = []
            var i = 0
            while i + 1 < numbers.count {
                raw.append((numbers[i], numbers[i + 1]))
                i += 2
            }
            let samples = stride(from: 0, to: raw.count, by: max(1, raw.count / 40)).map { raw[$0] }
            let expected = try cs2cs("EPSG:2263", samples)
            let map = try Support.writeMap(in: folder, layers: [#"{"name": "b", "source": "b.shp", "fill": {}}"#])
            let store = try #require(try Support.load(map).sources[0] as? FeatureStore)
            var ours: [(Double, Double)] = []
            for feature in store.features {
                for geometry in feature.geometries {
                    for v in 0..<geometry.vertexCount { ours.append((geometry.x(v), geometry.y(v))) }
                }
            }
            let sampled = stride(from: 0, to: ours.count, by: max(1, raw.count / 40)).map { ours[$0] }
            #expect(ours.count == raw.count)
            #expect(samples.count > 30)
            for (e, a) in zip(expected, sampled) {
                #expect(abs(e.0 - a.0) < 0.001 && abs(e.1 - a.1) < 0.001, "cs2cs \(e), ours \(a)")
            }
        }
    }

    /// Beyond Web Mercator's ±85.0511°, latitudes are clamped, as GeoJSON's are.
    @Test func polarLatitudesAreClamped() throws {
        let metres = try ours("EPSG:4326", [(10, 89.5), (10, -90)])
        let edge = 20_037_508.342789244
        #expect(abs(metres[0].1 - edge) < 1e-6 && abs(metres[1].1 + edge) < 1e-6)
        // Polar stereographic north: the pole itself.
        let pole = try ours("EPSG:3413", [(0, 0)])
        #expect(abs(pole[0].1 - edge) < 1e-6)
    }

    /// A source in longitude/latitude WGS84 skips PROJ: the same metres as the GeoJSON reader.
    @Test func longitudeLatitudeIsExactlyGeoJSONs() throws {
        let geojson = try GeoJSONReader.read(path: Support.boroughs)
        let projector = try MercatorProjector(try SourceCRS("EPSG:4326"))
        #expect(projector.isLongitudeLatitude)
        let first = geojson[0].geometries[0]
        let text = try String(contentsOfFile: Support.boroughs, encoding: .utf8)
        // The first position of the file: -74.0505081, 40.566422.
        #expect(text.contains("[ -74.0505081, 40.566422 ]"))
        var coordinates = [-74.0505081, 40.566422]
        try projector.toWebMercator(&coordinates)
        #expect(coordinates == [first.x(0), first.y(0)])
    }
}
