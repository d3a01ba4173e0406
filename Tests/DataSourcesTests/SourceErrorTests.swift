import Foundation
import MapModel
import Render
import Testing

@testable import DataSources

/// Each way a source can be wrong gives one line naming the map file, the layer's key and the
/// problem.
@Suite struct SourceErrorTests {
    /// Loads a one-layer map and returns its error.
    func error(
        _ layer: String, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let map = try Support.writeMap(in: folder, layers: [layer])
        let message = try #require(Support.loadError(map), sourceLocation: sourceLocation)
        #expect(message.hasPrefix(map + ": layers[0]"), "\(message)", sourceLocation: sourceLocation)
        #expect(!message.contains("\n"), "\(message)", sourceLocation: sourceLocation)
        return message
    }

    func boroughs(_ folder: URL, _ file: String, _ options: [String] = []) throws {
        try Support.run("ogr2ogr", options + [folder.appendingPathComponent(file).path, Support.boroughs])
    }

    @Test func missingDataset() throws {
        try Support.withScratch { folder in
            let message = try error(#"{"name": "b", "source": "gone.shp", "fill": {}}"#, in: folder)
            #expect(message.contains("layers[0].source: no such file: ") && message.hasSuffix("gone.shp"))
        }
    }

    /// A GeoPackage cut short: the file is there but GDAL cannot read it.
    @Test func unreadableDataset() throws {
        try Support.withScratch { folder in
            try boroughs(folder, "b.gpkg", ["-f", "GPKG"])
            let path = folder.appendingPathComponent("b.gpkg").path
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(2000).write(to: URL(fileURLWithPath: path))
            let message = try error(#"{"name": "b", "source": "b.gpkg", "fill": {}}"#, in: folder)
            #expect(message.contains("layers[0].source: ") && message.contains("b.gpkg"), "\(message)")
        }
    }

    @Test func unknownFormatListsTheDriversTried() throws {
        try Support.withScratch { folder in
            try "just some words\n".write(
                to: folder.appendingPathComponent("notes.dat"), atomically: true, encoding: .utf8)
            let message = try error(#"{"name": "b", "source": "notes.dat", "fill": {}}"#, in: folder)
            #expect(message.contains("layers[0].source: notes.dat is not in a format GDAL reads"), "\(message)")
            for driver in ["ESRI Shapefile", "GPKG", "FlatGeobuf", "GeoJSON", "CSV", "GPX", "KML"] {
                #expect(message.contains(driver), "\(driver) in \(message)")
            }
        }
    }

    @Test func missingLayerListsTheLayers() throws {
        try Support.withScratch { folder in
            try boroughs(folder, "two.gpkg", ["-f", "GPKG", "-nln", "first"])
            try boroughs(folder, "two.gpkg", ["-f", "GPKG", "-update", "-nln", "second"])
            let chosen = try error(#"{"name": "b", "source": "two.gpkg", "layer": "third", "fill": {}}"#, in: folder)
            #expect(
                chosen.contains(
                    "layers[0].layer: two.gpkg has no layer \"third\"; its layers are \"first\", \"second\""))
            let none = try error(#"{"name": "b", "source": "two.gpkg", "fill": {}}"#, in: folder)
            #expect(
                none.contains(
                    "layers[0].layer: two.gpkg holds 2 layers; choose one with \"layer\": \"first\", \"second\""))
        }
    }

    @Test func unknownOrUnusableCRS() throws {
        try Support.withScratch { folder in
            try boroughs(folder, "b.shp")
            let unknown = try error(#"{"name": "b", "source": "b.shp", "srs": "EPSG:999999", "fill": {}}"#, in: folder)
            #expect(unknown.contains("layers[0].srs: unknown CRS \"EPSG:999999\""), "\(unknown)")
            let garbage = try error(#"{"name": "b", "source": "b.shp", "srs": "not a crs", "fill": {}}"#, in: folder)
            #expect(garbage.contains("layers[0].srs: unknown CRS \"not a crs\""), "\(garbage)")
            let geocentric = try error(#"{"name": "b", "source": "b.shp", "srs": "EPSG:4978", "fill": {}}"#, in: folder)
            #expect(
                geocentric.contains("layers[0].srs: \"EPSG:4978\" (EPSG:4978) is a geocentric CRS"), "\(geocentric)")
            let vertical = try error(#"{"name": "b", "source": "b.shp", "srs": "EPSG:5703", "fill": {}}"#, in: folder)
            #expect(vertical.contains("is a vertical CRS"), "\(vertical)")
            // GeoJSON's crs member goes through the same check.
            let geojson = folder.appendingPathComponent("c.geojson")
            try
                #"{"type": "FeatureCollection", "crs": {"type": "name", "properties": {"name": "EPSG:999999"}}, "features": []}"#
                .write(to: geojson, atomically: true, encoding: .utf8)
            let map = try Support.writeMap(in: folder, layers: [#"{"name": "c", "source": "c.geojson", "fill": {}}"#])
            let member = try #require(Support.loadError(map))
            #expect(member.hasPrefix(geojson.path + ": crs.properties.name: unknown CRS \"EPSG:999999\""), "\(member)")
        }
    }

    @Test func noCRSNamesTheLayer() throws {
        try Support.withScratch { folder in
            try boroughs(folder, "b.csv", ["-f", "CSV", "-lco", "GEOMETRY=AS_WKT"])
            let message = try error(#"{"name": "boroughs", "source": "b.csv", "fill": {}}"#, in: folder)
            #expect(
                message.contains(
                    "layers[0].source: b.csv has no coordinate reference system: give layer \"boroughs\" one with \"srs\""
                ),
                "\(message)")
        }
    }

    @Test func badSQLAndFilterOnAFile() throws {
        try Support.withScratch { folder in
            try boroughs(folder, "b.gpkg", ["-f", "GPKG"])
            let sql = try error(
                #"{"name": "b", "source": "b.gpkg", "sql": "SELEC * FROM nybb", "fill": {}}"#, in: folder)
            #expect(sql.contains("layers[0].sql: the statement failed: ") && sql.contains("SELEC"), "\(sql)")
            let filter = try error(
                #"{"name": "b", "source": "b.gpkg", "where": "no_such_column = 3", "fill": {}}"#, in: folder)
            #expect(filter.contains("layers[0].where: ") && filter.contains("no_such_column"), "\(filter)")
        }
    }

    @Test func geometryNoSymbolDraws() throws {
        try Support.withScratch { folder in
            try boroughs(folder, "b.gpkg", ["-f", "GPKG"])
            let message = try error(#"{"name": "b", "source": "b.gpkg", "marker": {"size": 4}}"#, in: folder)
            #expect(
                message.contains("layers[0]: the source holds only polygons, which none of this layer's symbols draws"))
            #expect(message.hasSuffix("give it a fill or a line, or a label"))
            // The same from the GeoJSON, read whole.
            let geojson = try error(
                #"{"name": "b", "source": "\#(Support.boroughs)", "marker": {"size": 4}}"#, in: folder)
            #expect(geojson.contains("the source holds only polygons"))
        }
    }

    @Test func noGeometryAtAll() throws {
        try Support.withScratch { folder in
            try "name,population\nA,1\nB,2\n".write(
                to: folder.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
            let message = try error(
                #"{"name": "t", "source": "t.csv", "srs": "EPSG:4326", "marker": {}}"#, in: folder)
            #expect(message.contains("layers[0].source: t.csv has no geometry to draw (a CSV needs a WKT column"))
        }
    }

    /// Data that is not in the CRS it claims: the coordinates give it away, read whole or by view.
    @Test func dataOutsideItsCRS() throws {
        try Support.withScratch { folder in
            // Web Mercator metres, then labelled longitude/latitude.
            try boroughs(folder, "m.gpkg", ["-f", "GPKG", "-t_srs", "EPSG:3857"])
            let mercator = folder.appendingPathComponent("m.gpkg").path
            try Support.run(
                "ogr2ogr",
                ["-f", "GPKG", "-a_srs", "EPSG:4326", folder.appendingPathComponent("b.gpkg").path, mercator])
            try Support.run("ogr2ogr", ["-a_srs", "EPSG:4326", folder.appendingPathComponent("b.shp").path, mercator])
            let indexed = try error(#"{"name": "b", "source": "b.gpkg", "fill": {}}"#, in: folder)
            #expect(indexed.contains("layers[0].source: b.gpkg spans x -82"), "\(indexed)")
            #expect(
                indexed.hasSuffix(
                    "not longitude/latitude as its CRS EPSG:4326 says; give the layer its CRS with \"srs\""))
            let whole = try error(#"{"name": "b", "source": "b.shp", "fill": {}}"#, in: folder)
            #expect(whole.contains("layers[0].source: b.shp: feature 0 (FID 0): longitude -82"), "\(whole)")
            #expect(whole.contains("is out of range (-180 to 180): the data is not in longitude/latitude"))
        }
    }
}
