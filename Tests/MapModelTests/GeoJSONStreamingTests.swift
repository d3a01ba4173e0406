import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MapModel

/// GeoJSON is read from the file in chunks, a feature at a time, into a compact table: what it
/// reads must not depend on where the chunks end, errors keep their line and column, and the
/// `crs` member counts wherever it is in the object.
@Suite struct GeoJSONStreamingTests {
    /// Spherical Web Mercator, written out here as the reference (EPSG:3857).
    private func mercator(_ lon: Double, _ lat: Double) -> (x: Double, y: Double) {
        let radius = 6_378_137.0
        return (radius * lon * .pi / 180, radius * log(tan(.pi / 4 + lat * .pi / 360)))
    }

    /// Feature `i` of the test file: a point and a name with escapes and non-ASCII letters, so
    /// that strings and numbers straddle the 1 MiB chunk boundaries somewhere.
    private func featureText(_ i: Int) -> String {
        let lon = Double(i % 3600) / 10 - 179.95
        let lat = Double(i % 1700) / 20 - 42.5
        return
            #"{"type": "Feature", "properties": {"name": "Café \"\#(i)\" \u00e9\n", "rank": \#(i % 7), "pad": "\#(String(repeating: "x", count: i % 97))"}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    private func writeCollection(count: Int, extra: String = "") throws -> String {
        let path = NSTemporaryDirectory() + "meridian-stream-\(UUID().uuidString).geojson"
        var text = #"{"type": "FeatureCollection", "features": ["# + "\n"
        text += (0..<count).map(featureText).joined(separator: ",\n")
        text += "\n]" + extra + "}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func readsTheSameWhereverChunksEnd() throws {
        let count = 20_000
        let path = try writeCollection(count: count)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 3 * JSONStream.chunkSize)
        // Foundation's JSON reader is the reference for the attributes.
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let items = try #require(reference["features"] as? [[String: Any]])
        let table = try GeoJSONReader.readTable(path: path)
        #expect(table.count == count)
        for i in stride(from: 0, to: count, by: 37) {
            let feature = table.feature(i)
            let properties = try #require(items[i]["properties"] as? [String: Any])
            #expect(feature.properties["name"] == .string(try #require(properties["name"] as? String)))
            #expect(feature.properties["rank"] == .number(try #require(properties["rank"] as? Double)))
            let position = try #require((items[i]["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let expected = mercator(position[0], position[1])
            let geometry = try #require(feature.geometries.first)
            #expect(abs(geometry.x(0) - expected.x) < 1e-6 && abs(geometry.y(0) - expected.y) < 1e-6, "feature \(i)")
        }
    }

    @Test func errorsPastTheFirstChunkNameLineAndColumn() throws {
        // Line 1 opens the collection; feature i is on line i + 2. The bad number is in the
        // last feature's coordinates, far past the first chunk.
        let count = 12_000
        let path = try writeCollection(count: count)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let last = featureText(count - 1)
        let bad = last.replacingOccurrences(of: "\"coordinates\": [", with: "\"coordinates\": [01")
        text = text.replacingOccurrences(of: last, with: bad)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let column = try #require(bad.range(of: "[01")).upperBound
        let expectedColumn = bad[..<column].count  // the '1' after the leading zero
        #expect(
            throws: DocumentError(
                file: "big.geojson", place: "line \(count + 1), column \(expectedColumn)",
                message: "malformed JSON: invalid number (leading zero)")
        ) { try GeoJSONReader.readTable(path: path, displayName: "big.geojson") }
    }

    /// The features come before `crs`: the crs still applies to them (here it is refused,
    /// since without a resolver only longitude/latitude is read, before any feature is).
    @Test func aCRSAfterTheFeaturesCounts() throws {
        let path = try writeCollection(
            count: 3, extra: #", "crs": {"type": "name", "properties": {"name": "EPSG:27700"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: DocumentError(
                file: "d.geojson", place: "crs.properties.name",
                message: "the crs \"EPSG:27700\" is not longitude/latitude WGS84, the only one read here")
        ) { try GeoJSONReader.readTable(path: path, displayName: "d.geojson") }
        let lonLat = try writeCollection(
            count: 3, extra: #", "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}"#)
        defer { try? FileManager.default.removeItem(atPath: lonLat) }
        #expect(try GeoJSONReader.readTable(path: lonLat).count == 3)
    }

    /// A resolver that knows one made-up CRS: positions in kilometres east and north of
    /// Web Mercator's origin.
    private struct Kilometres: CRSResolver, CoordinateTransform {
        func transform(forCRS name: String) throws -> (any CoordinateTransform)? {
            guard name == "TEST:KM" else { throw TransformFailure("unknown crs \(name)") }
            return self
        }
        func toWebMercator(_ coordinates: inout [Double]) throws {
            for i in coordinates.indices { coordinates[i] *= 1000 }
        }
    }

    /// Features read before a `crs` member that follows them are read again with its
    /// transform, whether or not they also read as longitude/latitude (the first feature's
    /// point does, the second's does not).
    @Test func featuresBeforeALaterCRSAreReadWithIt() throws {
        let text =
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [12, 34]}}, {"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [1200, -3400]}}], "crs": {"type": "name", "properties": {"name": "TEST:KM"}}}"#
        let table = try GeoJSONReader.table(
            from: JSONStream(bytes: Array(text.utf8), file: "km.geojson"),
            coordinates: .fromFile(resolver: Kilometres()))
        #expect(table.count == 2)
        let points = (0..<table.count).map { table.feature($0).geometries[0] }
        #expect(points.map { [$0.x(0), $0.y(0)] } == [[12_000, 34_000], [1_200_000, -3_400_000]])
        // Before the features, the crs is known as they are read: the same table.
        let first =
            #"{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": "TEST:KM"}}, "features": [{"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [12, 34]}}]}"#
        let early = try GeoJSONReader.table(
            from: JSONStream(bytes: Array(first.utf8), file: "km.geojson"),
            coordinates: .fromFile(resolver: Kilometres()))
        #expect(early.feature(0).geometries[0].x(0) == 12_000)
    }

    /// The top-level object is checked whole before any feature's error is reported: a syntax
    /// error after the features comes first, then the object's own errors, then the features'.
    @Test func theTopLevelObjectsErrorsComeBeforeTheFeatures() throws {
        let badFeature =
            #"{"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [200, 0]}}"#
        let syntax = #"{"type": "FeatureCollection", "features": ["# + badFeature + #"], "name": tru}"#
        #expect(
            throws: DocumentError(
                file: "d.geojson", place: "line 1, column 150",
                message: "malformed JSON: unexpected 't', expected a value")
        ) { try GeoJSONReader.table(from: JSONStream(bytes: Array(syntax.utf8), file: "d.geojson")) }
        let noType = #"{"features": ["# + badFeature + "]}"
        #expect(
            throws: DocumentError(file: "d.geojson", place: "top level", message: "missing required key \"type\"")
        ) { try GeoJSONReader.table(from: JSONStream(bytes: Array(noType.utf8), file: "d.geojson")) }
        let good = #"{"type": "FeatureCollection", "features": ["# + badFeature + "]}"
        #expect(
            throws: DocumentError(
                file: "d.geojson", place: "features[0].geometry.coordinates",
                message: "longitude 200 is out of range (-180 to 180)")
        ) { try GeoJSONReader.table(from: JSONStream(bytes: Array(good.utf8), file: "d.geojson")) }
    }

    /// A crs name is echoed escaped, so the message stays one line (found by fuzzing: a name
    /// holding a newline split it in two).
    @Test func aCRSNameWithANewlineStaysOneLine() throws {
        let path = try writeCollection(
            count: 1, extra: #", "crs": {"type": "name", "properties": {"name": "urn:ogc:def\ncrs"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: DocumentError(
                file: "d.geojson", place: "crs.properties.name",
                message: #"the crs "urn:ogc:def\ncrs" is not longitude/latitude WGS84, the only one read here"#)
        ) { try GeoJSONReader.readTable(path: path, displayName: "d.geojson") }
    }

    /// One feature cannot take memory without bound before it reaches the table: the tree of
    /// one value has a limit (GeoJSONReader.maxValuesPerFeature for a feature).
    @Test func oneValueHasALimit() throws {
        let text = #"{"a": [[0, 0], [1, 1], [2, 2]]}"#
        // 1 object + 1 array + 3 arrays + 6 numbers = 11 values.
        #expect(try JSONStream(bytes: Array(text.utf8), file: "d.json").readValue(limit: 11) != .null)
        #expect(
            throws: DocumentError(
                file: "d.json", place: "line 1, column 28",
                message: "more than 10 JSON values in one feature, the limit (docs/limits.md)")
        ) { try JSONStream(bytes: Array(text.utf8), file: "d.json").readValue(limit: 10) }
    }

    /// Reading says how far it got, every 10,000 features, with the layer's name.
    @Test func readingReportsItsProgress() throws {
        final class Stages: StageReporter {
            let seen = Mutex<[String]>([])
            func stage(_ text: String) { seen.withLock { $0.append(text) } }
        }
        let path = try writeCollection(count: 25_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stages = Stages()
        let document = try MapDocument.decode(
            JSONNode(
                value: try JSONParser.parse(
                    Array(#"{"layers": [{"name": "towns", "source": "\#(path)", "marker": {}}]}"#.utf8), file: "m.json"),
                file: "m.json"), baseDirectory: "/")
        let store = try GeoJSONFiles(progress: stages).open(document.layers[0].source, layer: 0, document: document)
        #expect((store as? FeatureStore)?.count == 25_000)
        #expect(stages.seen.withLock { $0 } == ["reading towns: 10 k features", "reading towns: 20 k features"])
    }
}
