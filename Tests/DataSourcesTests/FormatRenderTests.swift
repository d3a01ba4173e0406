import Foundation
import MapModel
import Testing

@testable import DataSources

/// The New York boroughs converted by ogr2ogr to other formats and CRSs render as the GeoJSON
/// does, within the golden images' threshold.
@Suite struct FormatRenderTests {
    /// Converts the boroughs with ogr2ogr, renders the copy with `extra` layer keys, and compares
    /// it with the GeoJSON render.
    func check(
        _ file: String, _ options: [String], from input: String = Support.boroughs, extra: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let expected = try Support.geoJSONRender()
        try Support.withScratch { folder in
            let path = folder.appendingPathComponent(file).path
            try Support.run("ogr2ogr", options + [path, input])
            let map = try Support.writeMap(in: folder, layers: Support.nycLayers(source: "\"\(file)\"", extra: extra))
            let result = Support.comparator.compare(expected: expected, actual: try Support.render(map))
            #expect(!result.sizesDiffer, sourceLocation: sourceLocation)
            #expect(
                result.differingFraction <= Support.allowedFraction, "\(file): \(result.summary)",
                sourceLocation: sourceLocation)
        }
    }

    /// US survey feet of the New York Long Island state plane, from the .prj ogr2ogr writes.
    @Test func shapefileInStatePlaneFeet() throws {
        try check("nybb.shp", ["-t_srs", "EPSG:2263"])
    }

    @Test func geoPackageInWebMercator() throws {
        try check("nybb.gpkg", ["-f", "GPKG", "-t_srs", "EPSG:3857"])
    }

    @Test func flatGeobufInLongitudeLatitude() throws {
        try check("nybb.fgb", ["-f", "FlatGeobuf", "-t_srs", "EPSG:4326"])
    }

    /// A CSV has no CRS of its own: `srs` supplies it.
    @Test func csvWithWKT() throws {
        try check("nybb.csv", ["-f", "CSV", "-lco", "GEOMETRY=AS_WKT"], extra: #", "srs": "EPSG:4326""#)
    }

    /// `srs` overrides the data's CRS: a GeoPackage in Web Mercator whose metadata claims
    /// longitude/latitude (assigned, not reprojected) draws right once `srs` says EPSG:3857.
    @Test func srsOverridesTheDataCRS() throws {
        try Support.withScratch { folder in
            let mercator = folder.appendingPathComponent("m.gpkg").path
            try Support.run("ogr2ogr", ["-f", "GPKG", "-t_srs", "EPSG:3857", mercator, Support.boroughs])
            try check(
                "wrong.gpkg", ["-f", "GPKG", "-a_srs", "EPSG:4326"], from: mercator, extra: #", "srs": "EPSG:3857""#)
        }
    }

    /// GeoJSON in another CRS (the legacy `crs` member) goes through the strict reader and PROJ.
    @Test func geoJSONWithALegacyCRSMember() throws {
        try check("nybb-2263.geojson", ["-f", "GeoJSON", "-t_srs", "EPSG:2263"])
    }

    /// Indexed formats are queried by view; the others are read once into memory.
    @Test func indexedFormatsAreQueriedByView() throws {
        try Support.withScratch { folder in
            func source(_ file: String) throws -> any FeatureSource {
                let map = try Support.writeMap(
                    in: folder, layers: [#"{"name": "b", "source": "\#(file)", "fill": {}}"#], name: "one.json")
                return try Support.load(map).sources[0]
            }
            let gpkg = folder.appendingPathComponent("b.gpkg").path
            let fgb = folder.appendingPathComponent("b.fgb").path
            let shp = folder.appendingPathComponent("b.shp").path
            try Support.run("ogr2ogr", ["-f", "GPKG", gpkg, Support.boroughs])
            try Support.run("ogr2ogr", ["-f", "FlatGeobuf", fgb, Support.boroughs])
            try Support.run("ogr2ogr", [shp, Support.boroughs])
            #expect(try source("b.gpkg").isIndexed)
            #expect(try source("b.fgb").isIndexed)
            #expect(try !source("b.shp").isIndexed)
            // A .qix spatial index makes the Shapefile indexed.
            try Support.run("ogrinfo", [shp, "-sql", "CREATE SPATIAL INDEX ON b"])
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("b.qix").path))
            #expect(try source("b.shp").isIndexed)
            #expect(try !source(Support.boroughs).isIndexed)
        }
    }

    /// An indexed source answers a small view with only the features that reach it.
    @Test func anIndexedQueryReturnsOnlyWhatIntersects() throws {
        try Support.withScratch { folder in
            let gpkg = folder.appendingPathComponent("b.gpkg").path
            try Support.run("ogr2ogr", ["-f", "GPKG", "-t_srs", "EPSG:2263", gpkg, Support.boroughs])
            let map = try Support.writeMap(in: folder, layers: [#"{"name": "b", "source": "b.gpkg", "fill": {}}"#])
            let reader = try Support.load(map).sources[0].makeReader()
            // Around Staten Island's centre (-74.15, 40.58).
            let x = 6_378_137 * -74.15 * .pi / 180
            let y = 6_378_137 * log(tan(.pi / 4 + 40.58 * .pi / 360))
            let found = try reader.features(in: .init(minX: x - 500, minY: y - 500, maxX: x + 500, maxY: y + 500))
            #expect(found.map { $0.properties["BoroName"] } == [.string("Staten Island")])
            #expect(try reader.features(in: .init(minX: 0, minY: 0, maxX: 1000, maxY: 1000)).isEmpty)
        }
    }

    /// GPX and KML: multi-layer GPX needs `layer`, KML reads as points.
    @Test func gpxAndKMLPoints() throws {
        try Support.withScratch { folder in
            let csv = folder.appendingPathComponent("p.csv").path
            try "name,lon,lat\nBattery,-74.0170,40.7033\nBronx Zoo,-73.8770,40.8506\n".write(
                toFile: csv, atomically: true, encoding: .utf8)
            let gpx = folder.appendingPathComponent("p.gpx").path
            let kml = folder.appendingPathComponent("p.kml").path
            try Support.run(
                "ogr2ogr",
                [
                    "-f", "GPX", gpx, csv, "-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat",
                    "-a_srs", "EPSG:4326", "-nln", "waypoints", "-dsco", "GPX_USE_EXTENSIONS=YES",
                ])
            try Support.run(
                "ogr2ogr",
                [
                    "-f", "KML", kml, csv, "-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat",
                    "-a_srs", "EPSG:4326",
                ])
            let marker = #""marker": {"size": 8, "fill": "red"}"#
            let withoutLayer = try Support.writeMap(
                in: folder, layers: [#"{"name": "w", "source": "p.gpx", \#(marker)}"#], name: "gpx-bad.json")
            let error = Support.loadError(withoutLayer) ?? ""
            #expect(
                error.contains("layers[0].layer") && error.contains("\"waypoints\"") && error.contains("\"tracks\""))
            for (file, layer) in [
                ("p.gpx", #", "layer": "waypoints""#), ("p.kml", ""), ("p.csv", #", "srs": "EPSG:4326""#),
            ] {
                let map = try Support.writeMap(
                    in: folder, layers: [#"{"name": "w", "source": "\#(file)"\#(layer), \#(marker)}"#],
                    name: "\(file).json")
                let store = try #require(try Support.load(map).sources[0] as? FeatureStore)
                #expect(store.features.count == 2, "\(file)")
                let battery = try #require(store.features.first)
                // KML calls the attribute "Name".
                #expect((battery.properties["name"] ?? battery.properties["Name"]) == .string("Battery"), "\(file)")
                #expect(abs(battery.geometries[0].x(0) - 6_378_137 * -74.0170 * .pi / 180) < 1e-6, "\(file)")
            }
        }
    }
}
