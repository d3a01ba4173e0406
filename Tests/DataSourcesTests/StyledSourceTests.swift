import DataSources
import Foundation
import MapModel
import Render
import Testing

/// Styles draw the same from a source queried view by view (a GeoPackage, indexed) as from
/// the same features held in memory (GeoJSON): rules and expressions per feature, and label
/// candidates, curved text along rivers included, made block by block from what is read.
@Suite struct StyledSourceTests {
    static func layers(countries: String, rivers: String) -> [String] {
        [
            ##"{"name": "countries", "source": "\##(countries)", "rules": [{"fill": {"color": ["step", ["get", "pop_est"], "#fef0d9", 20000000, "#fc8d59"], "outline": {"color": "#ffffff", "width": 0.6}}}, {"filter": [">=", ["get", "pop_est"], 10000000], "label": {"text": ["concat", ["upcase", ["get", "name"]], " ", ["to-string", ["round", ["/", ["get", "pop_est"], 1000000]]], " M"], "size": 9, "halo": {"color": "#ffffff", "width": 1}}}]}"##,
            ##"{"name": "rivers", "source": "\##(rivers)", "line": {"color": "#4a7fb0", "width": 1}, "label": {"text": "{name}", "placement": "line", "size": 9, "spacing": 150, "color": "#1d4f80"}}"##,
        ]
    }

    @Test func geoPackageRendersAsGeoJSON() throws {
        try Support.withScratch { folder in
            let data = Support.root.appendingPathComponent("Fixtures/data")
            var paths: [String: String] = [:]
            for name in ["countries", "gshhg-rivers"] {
                let target = folder.appendingPathComponent("\(name).gpkg").path
                try Support.run("ogr2ogr", ["-f", "GPKG", target, data.appendingPathComponent("\(name).geojson").path])
                paths[name] = target
            }
            let view = try View.fitting(west: -12, south: 35, east: 35, north: 62, width: 700, height: 500)
            let fromGeoJSON = try Support.writeMap(
                in: folder,
                layers: Self.layers(
                    countries: data.appendingPathComponent("countries.geojson").path,
                    rivers: data.appendingPathComponent("gshhg-rivers.geojson").path), name: "geojson.json")
            let fromGPKG = try Support.writeMap(
                in: folder, layers: Self.layers(countries: paths["countries"]!, rivers: paths["gshhg-rivers"]!),
                name: "gpkg.json")
            let indexed = try Support.load(fromGPKG)
            #expect(indexed.sources.allSatisfy { $0.isIndexed })
            let expected = try Support.render(fromGeoJSON, view: view)
            let actual = try MapRenderer(map: indexed).renderImage(view: view)
            #expect(actual.pixels == expected.pixels)
            // Without the labels the picture differs: the comparison above covered them.
            let unlabelled = try Support.writeMap(
                in: folder,
                layers: [
                    ##"{"name": "countries", "source": "\##(paths["countries"]!)", "fill": {"color": ["step", ["get", "pop_est"], "#fef0d9", 20000000, "#fc8d59"], "outline": {"color": "#ffffff", "width": 0.6}}}"##,
                    ##"{"name": "rivers", "source": "\##(paths["gshhg-rivers"]!)", "line": {"color": "#4a7fb0", "width": 1}}"##,
                ], name: "plain.json")
            #expect(try Support.render(unlabelled, view: view).pixels != actual.pixels)
        }
    }
}
