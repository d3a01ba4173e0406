import Foundation
import MapModel
import TestSupport
import Testing

@testable import Render

/// Sizes stay within a layer's minSize and maxSize after the reference-scale factor, and
/// dashes are never shorter than a tenth of a pixel.
@Suite struct SymbolLimitTests {
    /// 10 pt at the OGC standard dpi (25.4 / 0.28) is 12.599 pixels.
    static let pixelsPerPoint = (25.4 / 0.28) / 72

    func markerDiameter(scale: Double, limits: String) throws -> Double {
        let map = try TestMap.load(
            features: [TestMap.point(0, 0)],
            layers: [#"{"name": "p", \#(limits) "marker": {"size": 10, "fill": "black"}}"#],
            map: #", "referenceScale": 1000000"#)
        let image = try TestMap.render(
            map, try View.centered(longitude: 0, latitude: 0, scale: scale, width: 201, height: 201))
        return 2 * (image.inkedArea / .pi).squareRoot()
    }

    @Test func scaledSizesStopAtMaxSizeAndMinSize() throws {
        // At a tenth of the reference scale the marker would be 100 pt; maxSize 40 holds it.
        let held = try markerDiameter(scale: 100_000, limits: #""maxSize": 40,"#)
        #expect(abs(held - 40 * Self.pixelsPerPoint) < 0.3, "\(held)")
        // At ten times the reference scale it would be 1 pt; minSize 4 keeps it readable.
        let kept = try markerDiameter(scale: 10_000_000, limits: #""minSize": 4,"#)
        #expect(abs(kept - 4 * Self.pixelsPerPoint) < 0.3, "\(kept)")
        // Without limits given, the default maxSize (250 pt) holds a 1e300 reference scale.
        let scale = SymbolScale(
            layer: Layer(name: "a", source: "a"),
            map: {
                var map = MapDocument(path: "m")
                map.referenceScale = 1e300
                return map
            }(), view: try View.centered(longitude: 0, latitude: 0, scale: 5000, width: 10, height: 10))
        #expect(scale.pixels(10) == 250 * Self.pixelsPerPoint)
        #expect(scale.pixels(-10) == -250 * Self.pixelsPerPoint)
        #expect(scale.pixels(0) == 0)
    }

    @Test func dashesAreAtLeastATenthOfAPixel() {
        #expect(DashPattern.pixels([0.001]) { $0 * 1.26 } == [0.1])
        #expect(DashPattern.pixels([0, 4]) { $0 } == [0, 4])  // a zero dash stays: dots with round caps
        #expect(DashPattern.pixels([0, 0]) { $0 }.isEmpty)  // nothing on: drawn solid
        #expect(DashPattern.pixels([4, 0.01]) { $0 } == [4, 0.1])
    }
}
