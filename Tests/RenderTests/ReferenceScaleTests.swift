import Foundation
import MapModel
import TestSupport
import Testing

@testable import Render

/// Marker and line sizes measured in rendered pixels against the reference-scale rule.
@Suite struct ReferenceScaleTests {
    static let reference = 1_000_000.0

    func markerDiameter(scale: Double, scalesSymbols: Bool, referenceScale: Double? = reference) throws -> Double {
        let map = try TestMap.load(
            features: [TestMap.point(0, 0)],
            layers: [#"{"name": "p", "scalesSymbols": \#(scalesSymbols), "marker": {"size": 10, "fill": "black"}}"#],
            map: referenceScale.map { #", "referenceScale": \#($0)"# } ?? "")
        let image = try TestMap.render(
            map, try View.centered(longitude: 0, latitude: 0, scale: scale, width: 101, height: 101))
        // The inked area of a disc is pi r^2, anti-aliasing included.
        return 2 * (image.inkedArea / .pi).squareRoot()
    }

    /// 10 pt at the OGC standard dpi (25.4 / 0.28) is 10 * 90.714 / 72 = 12.599 pixels.
    static let tenPoints = 10 * (25.4 / 0.28) / 72

    @Test func markersFollowTheReferenceScale() throws {
        let tolerance = 0.15
        #expect(abs(try markerDiameter(scale: Self.reference, scalesSymbols: true) - Self.tenPoints) < tolerance)
        #expect(
            abs(try markerDiameter(scale: 2 * Self.reference, scalesSymbols: true) - Self.tenPoints / 2) < tolerance)
        #expect(
            abs(try markerDiameter(scale: Self.reference / 2, scalesSymbols: true) - Self.tenPoints * 2) < tolerance)
    }

    @Test func layersThatDoNotScaleKeepTheirSize() throws {
        for scale in [Self.reference / 2, Self.reference, 2 * Self.reference] {
            #expect(abs(try markerDiameter(scale: scale, scalesSymbols: false) - Self.tenPoints) < 0.15)
            #expect(
                abs(try markerDiameter(scale: scale, scalesSymbols: true, referenceScale: nil) - Self.tenPoints) < 0.15)
        }
    }

    @Test func lineWidthsScaleToo() throws {
        let line =
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-10, 0], [10, 0]]}}"#
        let map = try TestMap.load(
            features: [line], layers: [#"{"name": "l", "line": {"width": 4, "color": "black"}}"#],
            map: #", "referenceScale": 1000000"#)
        for (scale, factor) in [(1_000_000.0, 1.0), (2_000_000, 0.5), (500_000, 2)] {
            let image = try TestMap.render(
                map, try View.centered(longitude: 0, latitude: 0, scale: scale, width: 60, height: 60))
            // The ink down one column across the line is its width.
            let width = (0..<image.height).reduce(0.0) { $0 + image.darkness(30, $1) }
            #expect(abs(width - 4 * (25.4 / 0.28) / 72 * factor) < 0.1)  // Cairo samples edges in 1/15 px rows
        }
    }
}
