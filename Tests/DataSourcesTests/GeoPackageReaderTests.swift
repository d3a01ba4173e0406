import Foundation
import Geodesy
import MapModel
import Testing

@testable import DataSources

/// A plain GeoPackage table is read straight from SQLite (`GeoPackageReader`); every view must
/// get what OGR's reading of the same file gives: the same features, ids, geometry and
/// attributes, OGR's spatial filter included.
@Suite struct GeoPackageReaderTests {
    /// Every kind of simple geometry, a collection, features without geometry, attributes of
    /// each type with nulls and gaps; random sizes from metres to a continent, written by
    /// ogr2ogr to a GeoPackage.
    func geoPackage(in folder: URL) throws -> String {
        var seed: UInt64 = 13
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        func walk(_ lon: Double, _ lat: Double, _ steps: Int, _ step: Double, closed: Bool = false, z: Bool = false)
            -> String
        {
            var points = [(lon, lat)]
            for _ in 0..<steps {
                let (x, y) = points[points.count - 1]
                points.append(
                    (min(180, max(-180, x + (next() - 0.5) * step)), min(89, max(-89, y + (next() - 0.5) * step))))
            }
            if closed { points.append(points[0]) }
            return "[" + points.map { z ? "[\($0.0), \($0.1), 7.5]" : "[\($0.0), \($0.1)]" }.joined(separator: ",")
                + "]"
        }
        var features: [String] = []
        for i in 0..<500 {
            let lon = -170 + 340 * next()
            let lat = -80 + 160 * next()
            let step = pow(10, -3 + 4 * next())
            let n = 1 + Int(next() * 40)
            let ring = walk(lon, lat, max(n, 3), step, closed: true)
            let geometry: String
            switch i % 10 {
            case 0: geometry = #"{"type": "Point", "coordinates": [\#(lon), \#(lat)]}"#
            case 1: geometry = #"{"type": "MultiPoint", "coordinates": \#(walk(lon, lat, n, step))}"#
            case 2: geometry = #"{"type": "LineString", "coordinates": \#(walk(lon, lat, n, step))}"#
            case 3:
                geometry =
                    #"{"type": "MultiLineString", "coordinates": [\#(walk(lon, lat, n, step)), \#(walk(lon + step, lat, 1 + n / 2, step))]}"#
            case 4: geometry = #"{"type": "Polygon", "coordinates": [\#(ring)]}"#
            case 5:
                // A square with a square hole.
                let (a, b) = (step, step / 3)
                geometry =
                    #"{"type": "Polygon", "coordinates": [[[\#(lon), \#(lat)], [\#(lon + a), \#(lat)], [\#(lon + a), \#(lat + a)], [\#(lon), \#(lat + a)], [\#(lon), \#(lat)]], [[\#(lon + b), \#(lat + b)], [\#(lon + 2 * b), \#(lat + b)], [\#(lon + 2 * b), \#(lat + 2 * b)], [\#(lon + b), \#(lat + b)]]]}"#
            case 6:
                geometry =
                    #"{"type": "MultiPolygon", "coordinates": [[\#(ring)], [\#(walk(lon - step, lat, 5, step / 4, closed: true))]]}"#
            case 7:
                geometry =
                    #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [\#(lon), \#(lat)]}, {"type": "LineString", "coordinates": \#(walk(lon, lat, n, step))}]}"#
            case 8: geometry = #"{"type": "LineString", "coordinates": \#(walk(lon, lat, n, step, z: true))}"#
            default: geometry = "null"
            }
            var properties = [#""n": \#(i)"#, #""big": \#(Int64(1) << 40 + Int64(i))"#]
            if i % 3 != 0 { properties.append(#""name": "feature \#(i) é""#) }
            if i % 4 == 0 {
                properties.append(#""ratio": \#(next())"#)
            } else if i % 4 == 1 {
                properties.append(#""ratio": null"#)
            }
            properties.append(#""flag": \#(i % 2 == 0)"#)
            features.append(
                #"{"type": "Feature", "properties": {\#(properties.joined(separator: ", "))}, "geometry": \#(geometry)}"#
            )
        }
        // Lines past and across a view's corner without a vertex in it: only GEOS can tell.
        features.append(
            #"{"type": "Feature", "properties": {"n": 900}, "geometry": {"type": "LineString", "coordinates": [[-50, 4], [-40, -6]]}}"#
        )
        features.append(
            #"{"type": "Feature", "properties": {"n": 901}, "geometry": {"type": "LineString", "coordinates": [[-50, 6], [-38, -6]]}}"#
        )
        // Round a view without meeting it: its envelope holds the view.
        features.append(
            #"{"type": "Feature", "properties": {"n": 902}, "geometry": {"type": "LineString", "coordinates": [[-60, -10], [-60, 20], [-20, 20]]}}"#
        )
        let geojson = folder.appendingPathComponent("mixed.geojson").path
        try #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ",\n"))]}"#.write(
            toFile: geojson, atomically: true, encoding: .utf8)
        let gpkg = folder.appendingPathComponent("mixed.gpkg").path
        try Support.run("ogr2ogr", ["-f", "GPKG", gpkg, geojson, "-nln", "mixed"])
        return gpkg
    }

    func source(_ gpkg: String, in folder: URL) throws -> OGRIndexedSource {
        let map = try Support.writeMap(
            in: folder, layers: [##"{"name": "m", "source": "\##(gpkg)", "line": {"color": "#000000"}}"##])
        return try #require(try Support.load(map).sources[0] as? OGRIndexedSource)
    }

    /// Each feature a reader hands over for `rect`, by id.
    func read(_ reader: any FeatureReader, _ rect: Rect, collapsing: Double? = nil) throws -> [Int: Feature] {
        var found: [Int: Feature] = [:]
        try reader.visitFeatures(in: rect, collapsingLinesWithin: collapsing) { feature in
            #expect(found.updateValue(feature, forKey: feature.index) == nil, "feature \(feature.index) twice")
        }
        return found
    }

    func expectSame(_ ours: [Int: Feature], _ ogr: [Int: Feature], _ what: String) {
        #expect(ours.keys.sorted() == ogr.keys.sorted(), "\(what): \(Set(ours.keys).symmetricDifference(ogr.keys))")
        for (id, feature) in ogr {
            guard let mine = ours[id] else { continue }
            #expect(mine.geometries == feature.geometries, "\(what), feature \(id)")
            #expect(mine.properties == feature.properties, "\(what), feature \(id)")
        }
    }

    /// Views of every size over the data, edges cutting through features.
    func views() -> [Rect] {
        var seed: UInt64 = 5
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let h = WebMercator.halfWorld
        var views = [
            Rect(minX: -h, minY: -h, maxX: h, maxY: h),
            // The view the corner-crossing lines pass by.
            Rect(
                minX: WebMercator.x(longitude: -45), minY: WebMercator.y(latitude: 0),
                maxX: WebMercator.x(longitude: -30), maxY: WebMercator.y(latitude: 15)),
        ]
        for i in 0..<120 {
            let size = h * pow(10, -3 * next()) * (i % 2 == 0 ? 1 : 0.3)
            let x = -h + 2 * h * next()
            let y = -h + 2 * h * next()
            views.append(Rect(minX: x - size, minY: y - size / 2, maxX: x + size, maxY: y + size))
        }
        return views
    }

    @Test func aPlainTableIsReadWithoutOGR() throws {
        try Support.withScratch { folder in
            let source = try source(try geoPackage(in: folder), in: folder)
            #expect(try source.makeReader() is GeoPackageReader)
            #expect(
                source.geoPackage?.columns.map(\.kind) == [
                    .integer(boolean: false), .integer64, .text, .real, .integer(boolean: true),
                ])
        }
    }

    @Test func everyViewGetsWhatOGRGives() throws {
        try Support.withScratch { folder in
            let source = try source(try geoPackage(in: folder), in: folder)
            let table = try #require(source.geoPackage)
            let ours = try GeoPackageReader(source: source, table: table)
            let ogr = try OGRIndexedReader(source: source)
            var total = 0
            for (i, view) in views().enumerated() {
                let expected = try read(ogr, view)
                expectSame(try read(ours, view), expected, "view \(i)")
                total += expected.count
            }
            // Not vacuous: the views found features, the whole world all of them.
            #expect(try read(ours, views()[0]).count == 453)
            #expect(total > 2_000)
            // The corner view: the line that crosses it is found, the one that passes it and the
            // one round it are not (their envelopes meet it).
            let corner = try read(ours, views()[1]).values.compactMap { $0.properties["n"] }
            #expect(corner.contains(.number(901)) && !corner.contains(.number(900)) && !corner.contains(.number(902)))
        }
    }

    @Test func linesCollapseAsOGRsDo() throws {
        try Support.withScratch { folder in
            let source = try source(try geoPackage(in: folder), in: folder)
            let ours = try GeoPackageReader(source: source, table: try #require(source.geoPackage))
            let ogr = try OGRIndexedReader(source: source)
            for zoom in [0, 3, 6, 9] {
                let tolerance = 2 * WebMercator.halfWorld / 256 / Double(1 << zoom) / 4
                for (i, view) in views().prefix(40).enumerated() {
                    expectSame(
                        try read(ours, view, collapsing: tolerance), try read(ogr, view, collapsing: tolerance),
                        "zoom \(zoom), view \(i)")
                }
            }
        }
    }

    /// Big-endian WKB (which ogr2ogr never writes) reads as OGR reads it.
    @Test func bigEndianGeometry() throws {
        try Support.withScratch { folder in
            let gpkg = try geoPackage(in: folder)
            // fid 3 is a line: the same vertices, big-endian, in a header without an envelope.
            let hex = try Support.run(
                "sqlite3", [gpkg, "SELECT hex(substr(geom, 1 + 8 + 32)) FROM mixed WHERE fid = 3"]
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            var bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
            }
            #expect(bytes[0] == 1 && bytes[1] == 2, "a little-endian line")
            let count = Int(bytes[5]) | Int(bytes[6]) << 8
            var swapped: [UInt8] = [0, 0, 0, 0, 2] + bytes[5..<9].reversed()
            for i in 0..<(2 * count) { swapped += bytes[(9 + 8 * i)..<(17 + 8 * i)].reversed() }
            bytes = [0x47, 0x50, 0, 0, 0, 0, 0x10, 0xE6] + swapped
            let blob = bytes.map { String(format: "%02X", $0) }.joined()
            try Support.run(
                "sqlite3",
                [gpkg, "\(dropTriggers) UPDATE mixed SET geom = X'\(blob)' WHERE fid = 3"])
            let source = try source(gpkg, in: folder)
            let ours = try GeoPackageReader(source: source, table: try #require(source.geoPackage))
            let world = views()[0]
            let feature = try #require(try read(ours, world)[3])
            #expect(feature.geometries.first?.vertexCount == count)
            expectSame(try read(ours, world), try read(try OGRIndexedReader(source: source), world), "big-endian")
        }
    }

    /// The R-tree's update triggers call OGR's SQL functions, which the sqlite3 tool lacks.
    let dropTriggers = (1...4).map { "DROP TRIGGER rtree_mixed_geom_update\($0);" }.joined()

    /// A geometry blob that is not one gives one line naming the map, the layer, the file and
    /// the feature.
    @Test func aBrokenBlobIsNamed() throws {
        try Support.withScratch { folder in
            let gpkg = try geoPackage(in: folder)
            try Support.run(
                "sqlite3", [gpkg, "\(dropTriggers) UPDATE mixed SET geom = X'4750000100' WHERE fid = 4"])
            let source = try source(gpkg, in: folder)
            let reader = try source.makeReader()
            #expect(throws: (any Error).self) { try reader.visitFeatures(in: views()[0]) { _ in } }
            do {
                try reader.visitFeatures(in: views()[0]) { _ in }
            } catch {
                let message = "\(error)"
                #expect(message.contains("layers[0].source: mixed.gpkg: feature 4 of table mixed: "), "\(message)")
                #expect(!message.contains("\n"))
            }
        }
    }

    /// A table with an attribute type this reader does not read (a date) stays with OGR.
    @Test func otherTablesStayWithOGR() throws {
        try Support.withScratch { folder in
            let gpkg = try geoPackage(in: folder)
            try Support.run("sqlite3", [gpkg, "ALTER TABLE mixed ADD COLUMN day DATE"])
            let source = try source(gpkg, in: folder)
            #expect(source.geoPackage == nil)
            #expect(try source.makeReader() is OGRIndexedReader)
        }
    }
}
