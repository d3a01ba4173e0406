import Foundation
import MapModel
import Testing

@testable import DataSources

/// GeoJSON is read by our strict reader (for its line:column errors); GDAL reads it when a
/// layer asks for `where` or `sql`. Both must give the same features.
@Suite struct GeoJSONAgreementTests {
    func readBoth(_ path: String) throws -> (strict: [Feature], ogr: [Feature]) {
        let document = MapDocument(path: "map.json", layers: [Layer(name: "l", source: LayerSource(dataset: path))])
        let strict = try #require(
            try DataSourceOpener().open(LayerSource(dataset: path), layer: 0, document: document) as? FeatureStore)
        let ogr = try #require(
            try DataSourceOpener().openWithOGR(
                LayerSource(dataset: path), name: "l", document: document, place: "layers[0]") as? FeatureStore)
        return (strict.features, ogr.features)
    }

    func expectSame(_ path: String) throws {
        let (strict, ogr) = try readBoth(path)
        let name = (path as NSString).lastPathComponent
        #expect(strict.count == ogr.count, "\(name)")
        #expect(!strict.isEmpty)
        for (a, b) in zip(strict, ogr) {
            #expect(a.index == b.index, "\(name)")
            #expect(a.properties == b.properties, "\(name) feature \(a.index): \(a.properties) vs \(b.properties)")
            #expect(a.geometries == b.geometries, "\(name) feature \(a.index): geometries differ")
        }
    }

    @Test func everyFixtureReadsTheSame() throws {
        let folder = Support.root.appendingPathComponent("Fixtures/data")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".geojson") }
        #expect(files.count >= 4)
        for file in files.sorted() { try expectSame(folder.appendingPathComponent(file).path) }
    }

    /// Every attribute type: integer, real, string, boolean, null, a date and a date-time, an
    /// array and an object (kept as JSON text), and a key some features lack.
    static let allTypes = #"""
        {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"i": 42, "r": 2.5, "s": "text", "b": true, "n": null, "d": "2024-05-01",
          "t": "2024-05-01T12:30:00Z", "a": [1, 2, 3], "o": {"k": "v"}, "only": "here"},
         "geometry": {"type": "Point", "coordinates": [-73.98, 40.75]}},
        {"type": "Feature", "properties": {"i": -7, "r": 1e-3, "s": "", "b": false, "n": null, "d": "1999-12-31",
          "t": "1999-12-31T23:59:59Z", "a": [4], "o": {"k": "w"}},
         "geometry": {"type": "MultiLineString", "coordinates": [[[-74, 40.7], [-73.9, 40.8]], [[-73.8, 40.6], [-73.7, 40.65]]]}},
        {"type": "Feature", "properties": {"i": 0, "r": -0.5, "s": "Zoë", "b": true, "n": null, "d": "2000-02-29",
          "t": "2000-02-29T00:00:00Z", "a": [], "o": {}},
         "geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [-73.9, 40.7]},
           {"type": "Polygon", "coordinates": [[[-74, 40], [-73, 40], [-73, 41], [-74, 40]], [[-73.8, 40.2], [-73.2, 40.2], [-73.5, 40.8], [-73.8, 40.2]]]}]}}
        ]}
        """#

    @Test func everyAttributeTypeReadsTheSame() throws {
        try Support.withScratch { folder in
            let path = folder.appendingPathComponent("types.geojson").path
            try GeoJSONAgreementTests.allTypes.write(toFile: path, atomically: true, encoding: .utf8)
            try expectSame(path)
            let (strict, _) = try readBoth(path)
            #expect(strict[0].properties["b"] == .bool(true))
            #expect(strict[0].properties["d"] == .string("2024-05-01"))
            #expect(strict[1].properties["only"] == nil)
        }
    }

    /// The same attributes through a GeoPackage's typed columns (INTEGER, REAL, TEXT, BOOLEAN,
    /// DATE, DATETIME): filters and labels see the same values as from the GeoJSON.
    @Test func geoPackageColumnsMapAsGeoJSONs() throws {
        try Support.withScratch { folder in
            let path = folder.appendingPathComponent("types.geojson").path
            try GeoJSONAgreementTests.allTypes.write(toFile: path, atomically: true, encoding: .utf8)
            let gpkg = folder.appendingPathComponent("types.gpkg").path
            try Support.run("ogr2ogr", ["-f", "GPKG", gpkg, path, "-nlt", "GEOMETRY"])
            let schema = try Support.run("ogrinfo", ["-so", gpkg, "types"])
            for column in ["i: Integer", "r: Real", "s: String", "b: Integer(Boolean)", "d: Date", "t: DateTime"] {
                #expect(schema.contains(column), "\(column) in \(schema)")
            }
            let (strict, _) = try readBoth(path)
            let document = MapDocument(path: "map.json", layers: [Layer(name: "l", source: LayerSource(dataset: gpkg))])
            let source = try DataSourceOpener().open(LayerSource(dataset: gpkg), layer: 0, document: document)
            let features = try source.makeReader().features(in: source.bounds)
            #expect(features.count == strict.count)
            for (a, b) in zip(strict, features) {
                // Not "a": GeoPackage has no list type, and ogr2ogr writes OGR's list text, "(3:1,2,3)".
                for key in ["i", "r", "s", "b", "d", "t", "o"] {
                    #expect(a.properties[key] == b.properties[key], "\(key): \(String(describing: b.properties[key]))")
                }
                // GeoPackage stores null for a column a feature lacks.
                #expect(b.properties["n"] == .null)
            }
        }
    }
}
