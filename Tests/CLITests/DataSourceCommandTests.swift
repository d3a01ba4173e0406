import Foundation
import ImageDiff
import Raster
import TestSupport
import Testing

/// `meridian render` from sources GDAL reads, as a user runs it: a Shapefile in a national CRS
/// draws as the GeoJSON does, and a bad source gets one line on stderr (none of GDAL's or
/// PROJ's own messages), exit status 1 and no output file.
@Suite struct DataSourceCommandTests {
    static let view = ["--bbox", "-74.26,40.49,-73.69,40.92", "--size", "640x520"]

    func map(_ folder: URL, source: String) throws -> String {
        let fonts = Repository.fixture("fonts")
        let text = #"""
            {"background": "#cfe3ee", "fonts": ["\#(fonts)"], "systemFonts": false, "layers": [
              {"name": "boroughs", "source": \#(source), "fill": {"color": "#f4efe1", "outline": {"color": "#8a7a5a", "width": 1}}},
              {"name": "names", "source": \#(source), "label": {"text": "{BoroName}", "size": 12}}]}
            """#
        let path = folder.appendingPathComponent("map.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func ogr2ogr(_ arguments: [String]) throws {
        try Tool.output("ogr2ogr", arguments)
    }

    @Test func shapefileInStatePlaneRendersAsTheGeoJSON() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try ogr2ogr([
            "-t_srs", "EPSG:2263", folder.appendingPathComponent("nybb.shp").path,
            Repository.fixture("data/nybb.geojson"),
        ])
        let fromGeoJSON = folder.appendingPathComponent("geojson.png").path
        let fromShapefile = folder.appendingPathComponent("shapefile.png").path
        let geojsonMap = try map(folder, source: "\"\(Repository.fixture("data/nybb.geojson"))\"")
        #expect(
            try Meridian.run(["render", geojsonMap] + DataSourceCommandTests.view + ["-o", fromGeoJSON]).status == 0)
        let shapefileMap = try map(folder, source: "\"nybb.shp\"")
        let run = try Meridian.run(["render", shapefileMap] + DataSourceCommandTests.view + ["-o", fromShapefile])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let expected = try PNG.decode(contentsOf: fromGeoJSON)
        let actual = try PNG.decode(contentsOf: fromShapefile)
        let result = ImageComparator(threshold: 0.015).compare(expected: expected, actual: actual)
        #expect(result.differingFraction <= 0.0005, "\(result.summary)")
    }

    @Test(arguments: [
        ("\"notes.dat\"", "layers[0].source: notes.dat is not in a format GDAL reads"),
        ("\"nybb.shp\", \"srs\": \"EPSG:999999\"", "layers[0].srs: unknown CRS \"EPSG:999999\""),
        (
            "{\"connection\": \"PG:host=/nonexistent dbname=gis\", \"table\": \"t\"}",
            "layers[0].source: cannot open PG:"
        ),
    ])
    func badSourcesGetOneLineAndNoFile(source: String, expected: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try "some words\n".write(to: folder.appendingPathComponent("notes.dat"), atomically: true, encoding: .utf8)
        try ogr2ogr([
            "-t_srs", "EPSG:2263", folder.appendingPathComponent("nybb.shp").path,
            Repository.fixture("data/nybb.geojson"),
        ])
        let mapPath = try map(folder, source: source)
        let output = folder.appendingPathComponent("out.png").path
        let run = try Meridian.run(["render", mapPath] + DataSourceCommandTests.view + ["-o", output])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("meridian render: \(mapPath): \(expected)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("out") }
        #expect(left.isEmpty)
    }
}
