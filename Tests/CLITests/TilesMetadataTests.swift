import Foundation
import Raster
import TestSupport
import Testing

/// Issue 17's honest metadata: `description`, `version`, `type` from the background, a
/// centre zoom that shows the data, and `--skip-empty`, checked with sqlite3 and pypng.
@Suite struct TilesMetadataTests {
    let world = Repository.fixture("maps/world.json")
    let overlay = Repository.fixture("maps/nyc-overlay.json")

    func metadata(_ path: String) throws -> [String: String] {
        let rows = try SQLiteShell.query(path, "SELECT name || '=' || value FROM metadata").split(separator: "\n")
        return Dictionary(
            uniqueKeysWithValues: rows.map { row in
                let parts = row.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            })
    }

    /// The zoom the documented rule gives: the deepest zoom (within the range) at which the
    /// bounds fit a 1024 px view in Web Mercator, here from the spherical Mercator formula.
    func expectedCenterZoom(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>) -> Int {
        func y(_ latitude: Double) -> Double { log(tan(Double.pi / 4 + latitude * Double.pi / 360)) / (2 * Double.pi) }
        let span = max((east - west) / 360, y(north) - y(south))
        var zoom = zooms.lowerBound
        while zoom < zooms.upperBound, span * 256 * pow(2, Double(zoom + 1)) <= 1024 { zoom += 1 }
        return zoom
    }

    @Test func anOpaqueMapIsABaselayerWithEveryTile() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.path + "/w.mbtiles"
        // --skip-empty changes nothing here: every tile of an opaque map shows something.
        let run = try Meridian.run(["tiles", world, "--zoom", "0-2", "-o", path, "--quiet", "--skip-empty"])
        #expect(run.status == 0, "\(run.stderr)")
        let values = try metadata(path)
        #expect(values["type"] == "baselayer")
        #expect(values["version"] == "1.0.0")
        #expect(values["description"] == "World: PNG map tiles, zoom 0-2, rendered by Meridian")
        #expect(values["center"] == "0,0,2")
        #expect(try SQLiteShell.query(path, "SELECT count(*) FROM tiles") == "21")
    }

    @Test func theCentreZoomShowsTheData() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let path = folder.path + "/nyc.mbtiles"
        let run = try Meridian.run([
            "tiles", Repository.fixture("maps/nyc.json"), "--zoom", "8-13", "--bbox", "-74.26,40.49,-73.69,40.92",
            "-o", path, "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let center = try #require(try metadata(path)["center"]).split(separator: ",")
        let zoom = expectedCenterZoom(west: -74.26, south: 40.49, east: -73.69, north: 40.92, zooms: 8...13)
        #expect(zoom > 8 && zoom < 13)  // inside the range: neither end
        #expect(center.count == 3 && Int(center[2]) == zoom, "\(center)")
        #expect(Double(center[0]) == -73.975 && Double(center[1]) == 40.705)
    }

    /// A transparent map is an overlay, and by default stores only the tiles that show
    /// something: exactly those that are not fully transparent as pypng decodes them from
    /// the same job run with --no-skip-empty. `diff` finds no difference between the two.
    @Test func aTransparentMapIsAnOverlayWithoutEmptyTiles() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let common = ["tiles", overlay, "--zoom", "0-4", "--quiet"]
        let skipped = folder.path + "/skipped"
        let full = folder.path + "/full"
        #expect(try Meridian.run(common + ["-o", skipped]).status == 0)
        #expect(try Meridian.run(common + ["-o", full, "--no-skip-empty"]).status == 0)
        let all = try FileTree.tiles(under: full)
        #expect(all.count == 341)
        let names = all.keys.sorted()
        let decoded = try referenceDecode(names.map { full + "/" + $0 })
        let showing = Set(
            zip(names, decoded).filter { _, image in
                image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element != 0 }
            }.map(\.0))
        #expect(!showing.isEmpty && showing.count < 20)
        let kept = try FileTree.tiles(under: skipped)
        #expect(Set(kept.keys) == showing)
        for name in showing { #expect(kept[name] == all[name], "\(name)") }

        let tileJSON =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: skipped + "/tiles.json")))
            as? [String: Any]
        #expect(tileJSON?["type"] as? String == "overlay")

        let mbtiles = folder.path + "/o.mbtiles"
        #expect(try Meridian.run(common + ["-o", mbtiles]).status == 0)
        #expect(try metadata(mbtiles)["type"] == "overlay")
        #expect(try SQLiteShell.query(mbtiles, "SELECT count(*) FROM tiles") == String(showing.count))

        let diff = try Meridian.run(["diff", skipped, full])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
    }
}
