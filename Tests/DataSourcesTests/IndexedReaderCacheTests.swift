import Foundation
import Geodesy
import MapModel
import Testing

@testable import DataSources

/// An indexed source's reader keeps converted features only where the next views need them:
/// those reaching beyond the query that read them. Points never reach beyond it.
@Suite struct IndexedReaderCacheTests {
    /// `points` places and one line crossing the zero meridian, written by ogr2ogr to a
    /// GeoPackage and read back through a reader of the map that uses it: OGR's, or ours
    /// straight from SQLite; each reader's features kept.
    func reader(points: Int, ogr: Bool, in folder: URL) throws -> (
        reader: any FeatureReader, converted: () -> Int
    ) {
        var features: [String] = []
        for i in 0..<points {
            let lon = -170 + Double((i * 7919) % 3400) / 10
            let lat = -70 + Double((i * 104_729) % 1400) / 10
            features.append(
                #"{"type": "Feature", "properties": {"name": "Place number \#(i) with a long name"}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
            )
        }
        features.append(
            #"{"type": "Feature", "properties": {"name": "line"}, "geometry": {"type": "LineString", "coordinates": [[-10, 1], [10, 2]]}}"#
        )
        let geojson = folder.appendingPathComponent("p.geojson").path
        try #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.write(
            toFile: geojson, atomically: true, encoding: .utf8)
        let gpkg = folder.appendingPathComponent("p.gpkg").path
        try Support.run("ogr2ogr", ["-f", "GPKG", gpkg, geojson])
        let map = try Support.writeMap(in: folder, layers: [#"{"name": "p", "source": "p.gpkg", "marker": {}}"#])
        let source = try #require(try Support.load(map).sources[0] as? OGRIndexedSource)
        if ogr {
            let reader = try OGRIndexedReader(source: source)
            return (reader, { reader.converted.count })
        }
        let reader = try GeoPackageReader(source: source, table: try #require(source.geoPackage))
        return (reader, { reader.converted.count })
    }

    @Test(arguments: [100, 400, 1600], [false, true])
    func aQueryKeepsOnlyWhatReachesBeyondIt(points: Int, ogr: Bool) throws {
        try Support.withScratch { folder in
            let (reader, converted) = try reader(points: points, ogr: ogr, in: folder)
            let world = Rect(minX: -2.1e7, minY: -2.1e7, maxX: 2.1e7, maxY: 2.1e7)
            var read = 0
            try reader.visitFeatures(in: world) { _ in read += 1 }
            #expect(read == points + 1)
            #expect(converted() == 0)
            // East of the meridian only: the line reaches west of it, and is kept for the view
            // that will ask for the other side.
            let east = Rect(minX: 0, minY: -2.1e7, maxX: 2.1e7, maxY: 2.1e7)
            var lines = 0
            try reader.visitFeatures(in: east) { feature in
                if feature.geometries.contains(where: { $0.kind == .line }) { lines += 1 }
            }
            #expect(lines == 1)
            #expect(converted() == 1)
        }
    }

    /// SQLite's page cache of a GeoPackage reader's connection stays within its size
    /// (`GeoPackageReader.pageCacheKB`) after views that read a table several times larger,
    /// where SQLite's default (2,000 KB a connection) filled up with it.
    @Test func aReadersPageCacheStaysWithinItsSize() throws {
        try Support.withScratch { folder in
            let (reader, _) = try reader(points: 24_000, ogr: false, in: folder)
            let file = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("p.gpkg").path)
            #expect((file[.size] as? Int ?? 0) > 2_500_000)
            let ours = try #require(reader as? GeoPackageReader)
            let h = 2.1e7
            let views = [
                Rect(minX: -h, minY: -h, maxX: h, maxY: h), Rect(minX: 0, minY: -h, maxX: h, maxY: h),
                Rect(minX: -h, minY: 0, maxX: 0, maxY: h), Rect(minX: -h, minY: -h, maxX: h, maxY: h),
            ]
            var read = 0
            for view in views {
                try reader.visitFeatures(in: view) { _ in read += 1 }
                #expect(ours.pageCacheBytes > 0)
                #expect(ours.pageCacheBytes <= GeoPackageReader.pageCacheKB * 1024 * 5 / 4)
            }
            #expect(read > 48_000)
        }
    }
}
