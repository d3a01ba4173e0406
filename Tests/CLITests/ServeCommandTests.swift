import Foundation
import Glibc
import ImageDiff
import Raster
import TestSupport
import Testing

/// `meridian serve` on loopback, asked with Python's http.client: tile sets of each kind, a
/// map rendered on demand (byte for byte what `meridian tiles` writes), each metatile
/// rendered once, the disk cache, the viewer page in Chromium, a clean stop, and load.
@Suite(.serialized) struct ServeCommandTests {
    let world = Repository.fixture("maps/world.json")

    /// `meridian tiles` of the world, zoom 0-3, into `folder/reference`: what the server must give.
    func reference(_ folder: URL, _ extra: [String] = []) throws -> String {
        let path = folder.path + "/reference"
        let run = try Meridian.run(["tiles", world, "--zoom", "0-3", "-o", path, "--quiet"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return path
    }

    /// The tile paths of a directory pyramid, /z/x/y.png, sorted.
    func tilePaths(_ root: String) throws -> [String] {
        try FileTree.tiles(under: root).keys.map { "/" + $0 }.sorted()
    }

    /// The XXH3-128 digest of `bytes` by Debian's xxhsum.
    func xxhsum(_ bytes: [UInt8]) throws -> String {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try Data(bytes).write(to: folder.appendingPathComponent("tile"))
        return String(try Tool.output("xxhsum", ["-H2", folder.path + "/tile"]).prefix { $0 != " " })
    }

    /// Each kind of tile set: every tile as stored, ETag the XXH3-128 of its bytes (xxhsum),
    /// 304 for a matching If-None-Match, 404 outside, 400 for a malformed path, 405 for POST.
    @Test(arguments: ["dir", "set.mbtiles", "set.pmtiles"])
    func servesATileSet(name: String) throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let expected = try reference(folder)
        let served = folder.path + "/" + name
        if name != "dir" { #expect(try Meridian.run(["convert", expected, served, "--quiet"]).status == 0) }
        let server = try MeridianServer([name == "dir" ? expected : served])
        let paths = try tilePaths(expected)
        #expect(paths.count == 85)
        let responses = try HTTPClient.get(port: server.port, paths)
        for (path, response) in zip(paths, responses) {
            #expect(response.status == 200, "\(path)")
            #expect(response.body == (try FileIO.readBytes(atPath: expected + path)), "\(path)")
            #expect(response.headers["content-type"] == "image/png")
            #expect(response.headers["cache-control"] == "public, max-age=3600")
        }
        let first = responses[0]
        #expect(first.headers["etag"] == "\"\(try xxhsum(first.body))\"")
        let again = try HTTPClient.get(
            port: server.port, [paths[0]], headers: ["If-None-Match": first.headers["etag"]!])
        #expect(again[0].status == 304 && again[0].body.isEmpty)
        let statuses = try HTTPClient.get(
            port: server.port,
            ["/4/0/0.png", "/3/8/0.png", "/0/0/0.jpg", "/a/b/c.png", "/1/0.png", "/1/0/x.png", "/nothing"]
        ).map(\.status)
        #expect(statuses == [404, 404, 404, 400, 400, 400, 404])
        #expect(try HTTPClient.get(port: server.port, [paths[0]], method: "POST")[0].status == 405)
        // One access-log line per request, after the banner.
        let log = server.lines.dropFirst()
        #expect(log.count == 85 + 1 + 7 + 1, "\(log.count)")
        #expect(log.first?.hasPrefix("127.0.0.1 \"GET \(paths[0])\" 200 ") == true, "\(log.first ?? "")")
        let stopped = server.stop(with: SIGTERM)
        #expect(stopped.status == 143 && stopped.stderr == "meridian serve: stopped after 94 requests\n", "\(stopped)")
    }

    /// A map rendered on demand gives the bytes of `meridian tiles`; 64 requests at once for
    /// the tiles of one 8 x 8 metatile render it once (the access log says which request
    /// rendered, which waited, which found the tile in memory).
    @Test func rendersEachMetatileOnceAndAsTheTileJobDoes() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let expected = try reference(folder)
        let server = try MeridianServer([world, "--zoom", "0-3", "--workers", "2"])
        let zoom3 = try tilePaths(expected).filter { $0.hasPrefix("/3/") }
        #expect(zoom3.count == 64)
        let burst = try HTTPClient.burst(port: server.port, zoom3)
        for (path, response) in zip(zoom3, burst) {
            #expect(response.status == 200, "\(path)")
            #expect(response.body == (try FileIO.readBytes(atPath: expected + path)), "\(path)")
        }
        let origins = server.lines.dropFirst().filter { $0.contains("\"GET /3/") }.map {
            $0.split(separator: " ").last!
        }
        #expect(origins.count == 64)
        #expect(origins.filter { $0 == "render" }.count == 1, "\(origins)")
        #expect(origins.allSatisfy { ["render", "wait", "memory"].contains($0) }, "\(origins)")
        // The rest of the pyramid, one request at a time, is the tile job's too.
        let others = try tilePaths(expected).filter { !$0.hasPrefix("/3/") }
        for (path, response) in zip(others, try HTTPClient.get(port: server.port, others)) {
            #expect(response.status == 200, "\(path)")
            #expect(response.body == (try FileIO.readBytes(atPath: expected + path)), "\(path)")
        }
        #expect(try HTTPClient.get(port: server.port, ["/4/0/0.png"])[0].status == 404)  // beyond --zoom
        #expect(server.stop(with: SIGINT).status == 130)
    }

    /// With --bbox, the served tiles are those of `meridian tiles --bbox` (whose boroughs cut by
    /// the area are labelled inside it), not those of a larger area's pyramid.
    @Test func aBBoxServesTheTilesOfTheSameBBox() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let nyc = Repository.fixture("maps/nyc.json")
        let area = ["--zoom", "11-12", "--bbox", "-74.05,40.60,-73.85,40.80"]
        let expected = folder.path + "/bbox"
        let whole = folder.path + "/whole"
        #expect(try Meridian.run(["tiles", nyc, "-o", expected, "--quiet"] + area).status == 0)
        // Around all of New York: no borough is cut by this area.
        let around = ["--zoom", "11-12", "--bbox", "-74.3,40.45,-73.65,40.95"]
        #expect(try Meridian.run(["tiles", nyc, "-o", whole, "--quiet"] + around).status == 0)
        let paths = try tilePaths(expected)
        // The area moves labels: otherwise this would not tell the two apart.
        #expect(
            try paths.contains { try FileIO.readBytes(atPath: expected + $0) != FileIO.readBytes(atPath: whole + $0) })
        let server = try MeridianServer([nyc, "--quiet"] + area)
        for (path, response) in zip(paths, try HTTPClient.get(port: server.port, paths)) {
            #expect(response.status == 200, "\(path)")
            #expect(response.body == (try FileIO.readBytes(atPath: expected + path)), "\(path)")
        }
    }

    /// A map with a grid is also served without it, for the viewer's switch: the tiles of
    /// `meridian tiles`'s without-grid layer.
    @Test func servesTheMapWithoutItsGridToo() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let grid = Repository.fixture("maps/grid-world.json")
        let expected = folder.path + "/grid"
        #expect(try Meridian.run(["tiles", grid, "--zoom", "0-1", "-o", expected, "--quiet"]).status == 0)
        let server = try MeridianServer([grid, "--zoom", "0-1", "--quiet"])
        for layer in ["", "/without-grid"] {
            let paths = try tilePaths(expected + layer)
            #expect(paths.count == 5)
            for (path, response) in zip(paths, try HTTPClient.get(port: server.port, paths.map { layer + $0 })) {
                #expect(response.status == 200, "\(layer)\(path)")
                #expect(response.body == (try FileIO.readBytes(atPath: expected + layer + path)), "\(layer)\(path)")
            }
        }
        let page = try HTTPClient.get(port: server.port, ["/"])[0]
        #expect(
            String(decoding: page.body, as: UTF8.self).contains(
                "\"withoutGrid\":\"\\/without-grid\\/{z}\\/{x}\\/{y}.png\""))
    }

    /// --cache DIR keeps what was rendered as a directory pyramid (the tile job's bytes), which
    /// a restarted server serves from disk; a cache of another tile set is refused.
    @Test func theDiskCacheIsAPyramid() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let expected = try reference(folder)
        let cache = folder.path + "/cache"
        let paths = ["/2/1/1.png", "/3/4/2.png", "/0/0/0.png"]
        do {
            let server = try MeridianServer([world, "--zoom", "0-3", "--cache", cache, "--workers", "2"])
            #expect(try HTTPClient.get(port: server.port, paths).allSatisfy { $0.status == 200 })
            #expect(server.stop(with: SIGTERM).status == 143)
        }
        // Whole metatiles were stored: zooms 0 and 2 fit one each, zoom 3's first is all of it.
        let stored = try FileTree.tiles(under: cache)
        #expect(stored.count == 1 + 16 + 64)
        for (name, bytes) in stored {
            #expect(bytes == (try FileIO.readBytes(atPath: expected + "/" + name)), "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: cache + "/tiles.json"))
        #expect(try !FileTree.paths(under: cache).contains { $0.contains(".meridian-") })

        let again = try MeridianServer([world, "--zoom", "0-3", "--cache", cache])
        let responses = try HTTPClient.get(port: again.port, paths)
        for (path, response) in zip(paths, responses) {
            #expect(response.body == (try FileIO.readBytes(atPath: expected + path)), "\(path)")
        }
        #expect(again.lines.dropFirst().map { $0.split(separator: " ").last! } == ["disk", "disk", "disk"])
        _ = again.stop(with: SIGTERM)

        let refused = try Meridian.run(["serve", world, "--zoom", "0-5", "--cache", cache, "--port", "0"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--cache \(cache): holds the tiles of another tile set (its maxzoom is '3'"))
    }

    /// The viewer page, TileJSON and Leaflet come from the server; in Chromium the page shows
    /// the served tiles.
    @Test func theServedViewerShowsTheTiles() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let expected = try reference(folder)
        let server = try MeridianServer([world, "--zoom", "0-3", "--quiet"])
        let tileJSON = try HTTPClient.get(port: server.port, ["/tiles.json"])[0]
        let document = try JSONSerialization.jsonObject(with: Data(tileJSON.body)) as? [String: Any]
        #expect(document?["tilejson"] as? String == "3.0.0")
        #expect(document?["tiles"] as? [String] == ["http://127.0.0.1:\(server.port)/{z}/{x}/{y}.png"])
        #expect(document?["minzoom"] as? Int == 0 && document?["maxzoom"] as? Int == 3)
        let shot = try Chromium.screenshot("http://127.0.0.1:\(server.port)/#1/0/0", width: 512, height: 512)
        try ViewerPageTests().expectSame(shot, try ViewerPageTests().mosaic(expected))
        #expect(server.lines.count == 1)  // --quiet: the banner only
    }

    /// Load on loopback: 8 clients for 5 seconds against a map rendered on demand, each
    /// response checked (tiles byte for byte, 404 and 400 where due). The latency
    /// percentiles are printed, not judged (timings belong in benchmarks).
    @Test func underLoadEveryResponseIsRight() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let expected = try reference(folder)
        let server = try MeridianServer([world, "--zoom", "0-3", "--quiet", "--workers", "2"])
        var cases: [(path: String, status: Int, file: String?)] = try tilePaths(expected).map {
            ($0, 200, expected + $0)
        }
        cases += [("/4/0/0.png", 404, nil), ("/0/1/0.png", 404, nil), ("/x/0/0.png", 400, nil)]
        let report = try HTTPClient.load(port: server.port, clients: 8, seconds: 5, cases: cases)
        let failures = report["failure_count"] as? Int
        #expect(failures == 0, "\(report["failures"] ?? [])")
        let requests = report["requests"] as? Int ?? 0
        #expect(requests >= cases.count, "\(report)")
        print("serve load: 8 clients, 5 s, \(requests) requests, latency ms \(report["latency_ms"] ?? [:])")
        #expect(server.stop(with: SIGTERM).status == 143)
    }
}
