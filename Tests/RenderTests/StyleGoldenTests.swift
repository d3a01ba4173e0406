import Foundation
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// One golden image per feature of the style language (Fixtures/maps/style-*.json), the same
/// images docs/style/ shows. After an intended change, `make golden-update` rewrites them.
@Suite struct StyleGoldenTests {
    let golden = GoldenCheck(threshold: 0.015, allowedFraction: 0.0005)

    func check(
        _ name: String, golden goldenName: String? = nil, view: View, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let loaded = try LoadedMap.load(path: Repository.fixture("maps/\(name).json"))
        let warnings = try MapWarnings.list(for: loaded)
        #expect(warnings.isEmpty, "\(warnings)")
        let image = try MapRenderer(map: loaded).renderImage(view: view)
        let expected = goldenName ?? name
        do {
            try golden.verify(expected, actual: image, expected: "Fixtures/golden/\(expected).png")
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    static func synthetic() throws -> View {
        try View.fitting(west: -11, south: -12.5, east: 11, north: 11.5, width: 640, height: 700)
    }

    static func europe() throws -> View {
        try View.fitting(west: -12, south: 34, east: 42, north: 62, width: 720, height: 520)
    }

    /// Casing and core, offsets either side, arrows along a one-way road, dashes in widths.
    @Test func lines() throws { try check("style-lines", view: try Self.synthetic()) }

    /// PNG and SVG patterns, hatching, an outline moved inward.
    @Test func fills() throws { try check("style-fills", view: try Self.synthetic()) }

    /// SVG and PNG icons, rotation from an attribute, icons and labels kept apart.
    @Test func markers() throws { try check("style-markers", view: try Self.synthetic()) }

    /// Text along lines (repeated, upright, not over the zigzag), positions tried in order,
    /// wrapped text, letter spacing, upper case.
    @Test func labels() throws { try check("style-labels", view: try Self.synthetic()) }

    /// Countries classed by population with `step`, an expression label, a stop rule.
    @Test func choropleth() throws { try check("style-choropleth", view: try Self.europe()) }

    /// The showcase (Fixtures/maps/showcase.json, the README's pictures): every feature on
    /// real data, Europe at a small scale and New York at a large one, from one document.
    @Test func showcaseEurope() throws {
        try check(
            "showcase", golden: "showcase-europe",
            view: try View.fitting(west: -12, south: 35, east: 35, north: 62, width: 900, height: 640))
    }

    @Test func showcaseNewYork() throws {
        try check(
            "showcase", golden: "showcase-nyc",
            view: try View.fitting(west: -74.26, south: 40.49, east: -73.69, north: 40.92, width: 640, height: 520))
    }

    /// A multiply-composited hatch layer and a half-transparent casing-and-core border layer.
    @Test func layers() throws { try check("style-layers", view: try Self.europe()) }
}
