import Foundation
import TestSupport
import Testing

/// GDAL and PROJ are opened when a map first needs them, not linked (Sources/CLibraryLoader):
/// the binaries do not list them, a map of GeoJSON in longitude/latitude never maps them, and
/// a library that cannot be loaded gets one line that names it, what needed it and why.
@Suite struct LibraryLoadingTests {
    static let view = ["--bbox", "-74.26,40.49,-73.69,40.92", "--size", "64x48"]

    /// The shared libraries a binary's dynamic section lists, by `readelf -d`.
    static func needed(_ path: String) throws -> [String] {
        // " 0x0000000000000001 (NEEDED)             Shared library: [libcairo.so.2]"
        try Tool.output("readelf", ["-d", "-W", path]).split(separator: "\n").filter { $0.contains("(NEEDED)") }
            .compactMap { line in
                guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
    }

    /// Runs `meridian ARGUMENTS` with the dynamic loader reporting every object it maps
    /// (`LD_DEBUG=files`, on stderr: "file=libcairo.so.2 [0];  generating link map"), at start
    /// or by dlopen later; returns the run and those objects' file names.
    static func loaded(_ arguments: [String], environment: [String: String] = [:]) throws -> (ToolRun, Set<String>) {
        let run = try Meridian.run(arguments, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
        let names = run.stderr.split(separator: "\n").filter { $0.contains("generating link map") }.compactMap {
            line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            let name = line[start.upperBound...].prefix { $0 != " " }
            return (String(name) as NSString).lastPathComponent
        }
        return (run, Set(names))
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A map of one layer read from `source` (JSON text), drawn as circles.
    static func map(_ source: String, in folder: URL, extra: String = "") throws -> String {
        let fonts = Repository.fixture("fonts")
        return try write(
            #"""
            {"fonts": ["\#(fonts)"], "systemFonts": false, "layers": [
              {"name": "places", "source": \#(source)\#(extra), "marker": {"shape": "circle", "size": 4, "fill": "#d62728"}}]}
            """#, "map.json", in: folder)
    }

    /// A CSV of two places: OGR reads it, so drawing it needs GDAL.
    static func csvMap(in folder: URL) throws -> String {
        _ = try write("name,lon,lat\nCity Hall,-74.006,40.713\nFlushing,-73.83,40.76\n", "places.csv", in: folder)
        return try map("\"places.csv\"", in: folder, extra: #", "srs": "EPSG:4326""#)
    }

    @Test(arguments: ["meridian", "the test bundle"])
    func binariesDoNotListGDALOrPROJ(binary: String) throws {
        let path =
            binary == "meridian"
            ? Meridian.binary.path : try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let libraries = try LibraryLoadingTests.needed(path)
        // The list is read right: the libraries still linked are on it.
        #expect(libraries.contains { $0.hasPrefix("libcairo.so") }, "\(path): \(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libgdal") || $0.hasPrefix("libproj") }, "\(path): \(libraries)")
    }

    /// The world map's GeoJSON names its CRS (`urn:ogc:def:crs:OGC:1.3:CRS84`) and the second
    /// layer gives `"srs": "EPSG:4326"`: both are longitude/latitude, which needs no PROJ.
    @Test func geoJSONInLongitudeLatitudeMapsNeitherLibrary() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let fonts = Repository.fixture("fonts")
        let map = try LibraryLoadingTests.write(
            #"""
            {"fonts": ["\#(fonts)"], "systemFonts": false, "layers": [
              {"name": "countries", "source": "\#(Repository.fixture("data/countries.geojson"))", "fill": {"color": "#f2efe9"}},
              {"name": "boroughs", "source": "\#(Repository.fixture("data/nybb.geojson"))", "srs": "EPSG:4326",
               "fill": {"color": "#8a7a5a"}}]}
            """#, "map.json", in: folder)
        let output = folder.appendingPathComponent("out.png").path
        let (run, libraries) = try LibraryLoadingTests.loaded(
            ["render", map] + LibraryLoadingTests.view + ["-o", output])
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: output), "\(run.status)")
        #expect(libraries.contains { $0.hasPrefix("libcairo.so") }, "\(libraries.sorted())")
        #expect(!libraries.contains { $0.hasPrefix("libgdal") || $0.hasPrefix("libproj") }, "\(libraries.sorted())")
    }

    /// The other side: a source OGR reads loads libgdal when the map opens, and the check above
    /// sees libraries loaded that way.
    @Test func aSourceGDALReadsLoadsIt() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("out.png").path
        let (run, libraries) = try LibraryLoadingTests.loaded(
            ["render", try LibraryLoadingTests.csvMap(in: folder)] + LibraryLoadingTests.view + ["-o", output])
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: output), "\(run.status)")
        #expect(libraries.contains { $0.hasPrefix("libgdal.so") }, "\(libraries.sorted())")
    }

    @Test func aGDALThatCannotBeLoadedGetsOneLineAndNoOutput() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = try LibraryLoadingTests.csvMap(in: folder)
        let output = folder.appendingPathComponent("tiles").path
        let missing = folder.appendingPathComponent("nowhere/libgdal.so.32").path
        let run = try Meridian.run(
            ["tiles", map, "--zoom", "0-1", "-o", output], environment: ["MERIDIAN_GDAL_LIBRARY": missing])
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix(
                "meridian tiles: \(map): layers[0].source: cannot load GDAL (\(missing)), which reading places.csv "
                    + "needs: \(missing): cannot open shared object file: No such file or directory"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aPROJThatCannotBeLoadedGetsOneLineAndNoOutput() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let map = try LibraryLoadingTests.map(
            "\"\(Repository.fixture("data/nybb.geojson"))\"", in: folder, extra: #", "srs": "EPSG:2263""#)
        let output = folder.appendingPathComponent("out.png").path
        let missing = folder.appendingPathComponent("nowhere/libproj.so.25").path
        let run = try Meridian.run(
            ["render", map] + LibraryLoadingTests.view + ["-o", output], environment: ["MERIDIAN_PROJ_LIBRARY": missing]
        )
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix(
                "meridian render: \(map): layers[0].srs: cannot load PROJ (\(missing)), which the CRS \"EPSG:2263\" "
                    + "needs: \(missing): cannot open shared object file: No such file or directory"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
