import Foundation
import ImageDiff
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// Renders of the maps in Fixtures/maps compared with Fixtures/golden. After an intended
/// change, `make golden-update` rewrites the expected images and the review shows them.
@Suite struct GoldenRenderTests {
    /// Our renders are deterministic (shipped fonts, fixed font options), so the threshold is
    /// tight: a one-level rounding difference passes, a colour change of a few levels does not.
    let golden = GoldenCheck(threshold: 0.015, allowedFraction: 0.0005)

    func check(_ name: String, map: String, view: View, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let loaded = try LoadedMap.load(path: Repository.fixture("maps/\(map)"))
        let image = try MapRenderer(map: loaded).renderImage(view: view)
        do {
            try golden.verify(name, actual: image, expected: "Fixtures/golden/\(name).png")
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func worldAtZoomZero() throws {
        try check("world-z0", map: "world.json", view: try View.tiles(z: 0, x: 0, y: 0))
    }

    @Test func worldWholeAtTwoTilesWide() throws {
        try check("world-z1", map: "world.json", view: try View.tiles(z: 1, x: 0, y: 0, columns: 2, rows: 2))
    }

    /// The capitals scale with the reference scale (1:35,000,000); countries do not.
    @Test(arguments: [("europe-35M", 35_000_000.0), ("europe-70M", 70_000_000), ("europe-17M", 17_500_000)])
    func referenceScaleAtThreeScales(name: String, scale: Double) throws {
        try check(
            name, map: "world.json",
            view: try View.centered(longitude: 15, latitude: 50, scale: scale, width: 480, height: 360))
    }

    @Test func everySymbol() throws {
        try check(
            "symbols", map: "symbols.json",
            view: try View.fitting(west: -11, south: -13, east: 11, north: 8.5, width: 640, height: 640))
    }

    @Test func newYorkBoroughs() throws {
        try check(
            "nyc", map: "nyc.json",
            view: try View.fitting(west: -74.26, south: 40.49, east: -73.69, north: 40.92, width: 640, height: 520))
    }
}
