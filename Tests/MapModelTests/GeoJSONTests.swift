import Foundation
import Geodesy
import TestSupport
import Testing

@testable import MapModel

@Suite struct GeoJSONTests {
    func read(_ text: String) throws -> [Feature] {
        let table = try GeoJSONReader.table(from: JSONStream(bytes: Array(text.utf8), file: "d.geojson"))
        return (0..<table.count).map(table.feature)
    }

    func error(_ text: String) -> String {
        do {
            _ = try read(text)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test func projectsToWebMercator() throws {
        let features = try read(
            #"{"type": "Feature", "properties": {"n": 1}, "geometry": {"type": "Point", "coordinates": [180, 85.0511287798066]}}"#
        )
        let g = features[0].geometries[0]
        // EPSG:3857 bounds: ±20037508.342789244 m.
        #expect(abs(g.x(0) - 20037508.342789244) < 1e-6)
        #expect(abs(g.y(0) - 20037508.342789244) < 1e-3)
        #expect(abs(WebMercator.y(latitude: 45) - 5621521.486192066) < 1e-6)
        #expect(abs(WebMercator.latitude(y: 5621521.486192066) - 45) < 1e-12)
        // Latitudes beyond the square world clamp to its edge.
        #expect(WebMercator.y(latitude: 90) == WebMercator.y(latitude: WebMercator.maxLatitude))
    }

    @Test func polygonsKeepHolesAndParts() throws {
        let features = try read(
            """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry":
              {"type": "MultiPolygon", "coordinates": [
                [[[0,0],[10,0],[10,10],[0,10],[0,0]], [[2,2],[2,8],[8,8],[8,2],[2,2]]],
                [[[20,0],[30,0],[30,10],[20,0]]]]}}]}
            """)
        let g = features[0].geometries[0]
        #expect(g.kind == .polygon)
        #expect(g.polygonCount == 2)
        #expect(g.ringRange(ofPolygon: 0) == 0..<2)
        #expect(g.ringRange(ofPolygon: 1) == 2..<3)
        #expect(g.partRange(1) == 5..<10)
    }

    @Test func geometryCollectionsSplitByKind() throws {
        let features = try read(
            #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [1, 2]}, {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}]}"#
        )
        #expect(features[0].geometries.map(\.kind) == [.point, .line])
    }

    @Test func badInputNamesThePlace() {
        #expect(
            error(
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}}, {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 95]]}}]}"#
            )
                == "d.geojson: features[1].geometry.coordinates[1]: latitude 95 is out of range (-90 to 90)")
        #expect(
            error(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [-181, 0]}}"#)
                == "d.geojson: geometry.coordinates: longitude -181 is out of range (-180 to 180)")
        #expect(
            error(#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1]]]}}"#)
                == "d.geojson: geometry.coordinates[0]: a ring needs at least 4 positions, got 2")
        #expect(error(#"{"type": "Topology"}"#) == "d.geojson: type: not GeoJSON: unknown type \"Topology\"")
        #expect(error(#"[1, 2]"#) == "d.geojson: top level: not GeoJSON: expected an object, got an array")
        #expect(
            error(#"{"type": "Feature", "geometry": {"type": "Point", "coordinates": ["a", 0]}}"#)
                .contains("must be numbers"))
    }

    @Test func realDataLoads() throws {
        let store = try FeatureStore.load(path: Repository.fixture("data/countries.geojson"))
        #expect(store.features.count == 177)
        #expect(store.features.reduce(0) { $0 + $1.geometries.reduce(0) { $0 + $1.vertexCount } } == 10_643)
    }
}
