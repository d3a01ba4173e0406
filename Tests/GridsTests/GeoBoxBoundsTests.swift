import Foundation
import Geodesy
import TestSupport
import Testing

@testable import Grids

/// On a separable plane `GeoBox.bounds` converts only the extreme samples of a rectangle's
/// edges; the box is the one every sample gives, bit for bit.
@Suite struct GeoBoxBoundsTests {
    static func bits(_ box: GeoBox) -> [UInt64] {
        [box.south.bitPattern, box.north.bitPattern, box.west.bitPattern, box.east.bitPattern]
    }

    @Test func extremeSamplesGiveTheSampledBox() {
        var random = Xorshift(state: 0xB0C5_0FED_6E5)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var compared = 0
        for round in 0..<20_000 {
            let zoom = Int(random.next() % 25)
            let projection = WebMercatorGridProjection(resolution: WebMercator.resolution(zoom: zoom))
            let world = 256 * Foundation.pow(2, Double(zoom))
            // Anywhere in the world and a little beyond, from a pixel to the whole world wide,
            // at whole, half and arbitrary pixels.
            var x = (unit() * 1.2 - 0.1) * world
            var y = (unit() * 1.2 - 0.1) * world
            var width = 1 + Foundation.pow(unit(), 4) * world
            var height = 1 + Foundation.pow(unit(), 4) * world
            switch round % 3 {
            case 0: (x, y, width, height) = (x.rounded(), y.rounded(), width.rounded(), height.rounded())
            case 1: (x, y) = ((x * 2).rounded() / 2, (y * 2).rounded() / 2)
            default: break
            }
            let rect = Rect(x: x, y: y, width: width, height: height)
            let fast = GeoBox.bounds(of: rect, in: projection)
            let sampled = GeoBox.bounds(of: rect, in: projection, sampled: true)
            #expect(Self.bits(fast) == Self.bits(sampled), "zoom \(zoom) \(rect)")
            compared += 1
        }
        #expect(compared == 20_000)
    }

    /// Rectangles under a pixel, and planes that are not separable, are sampled as before.
    @Test func otherRectanglesAndPlanesAreSampled() {
        let projection = WebMercatorGridProjection(resolution: WebMercator.resolution(zoom: 12))
        #expect(Rect(x: 10, y: 10, width: 0.5, height: 20).extremeEdgePositions(in: projection) == nil)
        #expect(Rect(x: 10, y: 10, width: 20, height: 20).extremeEdgePositions(in: projection)?.count == 3)
        let sheet = TransverseMercatorSheet(centralMeridian: -75, resolution: 10)
        #expect(Rect(x: 10, y: 10, width: 20, height: 20).extremeEdgePositions(in: sheet) == nil)
    }
}
