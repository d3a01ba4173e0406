import Foundation
import ImageDiff
import Raster
import TestSupport
import Testing

/// The viewer page beside a directory pyramid, in a real browser: headless Chromium loads
/// `index.html` from a loopback HTTP server (Python's), and the map area of its screenshot
/// matches a mosaic of the same tiles under the perceptual comparison.
@Suite struct ViewerPageTests {
    /// Zoom 1 at 0,0 in a 512 x 512 window shows the four tiles of zoom 1 exactly.
    static let view = "#1/0/0"

    /// `meridian tiles` of the fixture map NAME.json into FOLDER/NAME, a directory pyramid
    /// (with its viewer page); returns its path.
    func tiles(_ name: String, zoom: String, in folder: String) throws -> String {
        let root = folder + "/" + name
        let run = try Meridian.run([
            "tiles", Repository.fixture("maps/\(name).json"), "--zoom", zoom, "-o", root, "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        return root
    }

    /// The four zoom-1 tiles of `root`, as one 512 x 512 image.
    func mosaic(_ root: String) throws -> Image {
        var image = Image(width: 512, height: 512)
        for x in 0...1 {
            for y in 0...1 {
                image.paste(try PNG.decode(contentsOf: "\(root)/1/\(x)/\(y).png"), x: x * 256, y: y * 256)
            }
        }
        return image
    }

    /// The map area: the screenshot less the corners Leaflet's controls cover (zoom buttons
    /// and the layer switch at the top, scale bar and attribution at the bottom), moved by
    /// `dx`, `dy`.
    func mapArea(_ image: Image, dx: Int = 0, dy: Int = 0) throws -> Image {
        try image.cropped(x: 56 + dx, y: 100 + dy, width: 400, height: 360)
    }

    /// The screenshot matches the tiles. Chromium's headless viewport can be a pixel shorter
    /// than its window, which moves Leaflet's rounded centre by a pixel: the best of the
    /// alignments within a pixel is taken.
    func expectSame(_ screenshot: Image, _ tiles: Image, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(screenshot.width == 512 && screenshot.height == 512, sourceLocation: sourceLocation)
        let expected = try mapArea(tiles)
        var best: DiffResult?
        for dx in -1...1 {
            for dy in -1...1 {
                let result = ImageComparator().compare(
                    expected: expected, actual: try mapArea(screenshot, dx: dx, dy: dy))
                if best.map({ result.differingFraction < $0.differingFraction }) ?? true { best = result }
            }
        }
        #expect(best!.differingFraction <= 0.001, "\(best!.summary)", sourceLocation: sourceLocation)
    }

    @Test func thePageShowsThePyramidsTiles() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let root = try tiles("world", zoom: "0-2", in: folder.path)
        let page = try String(contentsOfFile: root + "/index.html", encoding: .utf8)
        #expect(page.contains("<title>World</title>") && page.contains("L.control.scale()"))
        #expect(page.contains("Natural Earth (public domain)"))
        #expect(!page.contains("http://") && !page.contains("https://"))  // nothing from the network
        // TileJSON 3.0.0 beside it, with every key a client needs.
        let tileJSON =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/tiles.json")))
            as? [String: Any] ?? [:]
        #expect(tileJSON["tilejson"] as? String == "3.0.0" && tileJSON["tiles"] as? [String] == ["{z}/{x}/{y}.png"])
        #expect(tileJSON["name"] as? String == "World" && tileJSON["scheme"] as? String == "xyz")
        #expect(tileJSON["attribution"] as? String == "Natural Earth (public domain)")
        #expect(tileJSON["description"] as? String == "World: PNG map tiles, zoom 0-2, rendered by Meridian")
        #expect(
            tileJSON["minzoom"] as? Int == 0 && tileJSON["maxzoom"] as? Int == 2
                && tileJSON["format"] as? String == "png")
        #expect((tileJSON["bounds"] as? [Double])?.count == 4 && (tileJSON["center"] as? [Double]) == [0, 0, 2])
        for file in ["leaflet/leaflet.js", "leaflet/leaflet.css", "leaflet/images/layers.png"] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
        }
        let server = try StaticHTTPServer(serving: root)
        let shot = try Chromium.screenshot(server.url("index.html" + Self.view), width: 512, height: 512)
        try expectSame(shot, try mosaic(root))
        // Something is drawn: the comparison is not of two empty images.
        let area = try mapArea(shot)
        #expect(!area.isFullyTransparent && Set(area.pixels).count > 8)
    }

    /// A map with a grid: the page opens on the tiles with the grid and switches to the
    /// layer rendered without it; the two differ.
    @Test func theGridSwitchShowsTheMapWithoutItsGrid() throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let root = try tiles("grid-world", zoom: "0-1", in: folder.path)
        let withGrid = try mosaic(root)
        let withoutGrid = try mosaic(root + "/without-grid")
        #expect(
            ImageComparator().compare(expected: try mapArea(withGrid), actual: try mapArea(withoutGrid))
                .differingFraction > 0.01)
        let server = try StaticHTTPServer(serving: root)
        try expectSame(try Chromium.screenshot(server.url("index.html" + Self.view), width: 512, height: 512), withGrid)
        try expectSame(
            try Chromium.screenshot(server.url("index.html" + Self.view + "/without-grid"), width: 512, height: 512),
            withoutGrid)
    }
}
