import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

@Suite struct PolygonTests {
    @Test func holesStayUnfilledAndMultipolygonsFillEveryPart() throws {
        // Outer ring counter-clockwise, hole also counter-clockwise (wrong winding on purpose:
        // even-odd filling must still leave it open), and a second polygon.
        let feature =
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]], [[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]]], [[[12, -2], [16, -2], [16, 2], [12, 2], [12, -2]]]]}}"#
        let map = try TestMap.load(features: [feature], layers: [##"{"name": "a", "fill": {"color": "#ff0000"}}"##])
        let image = try TestMap.render(
            map, try View.fitting(west: -20, south: -20, east: 20, north: 20, width: 200, height: 200))
        let red = RGBA(255, 0, 0)
        let white = RGBA.white
        #expect(image[100, 100] == white)  // the hole
        #expect(image[100, 62] == red)  // the ring between hole and outline
        #expect(image[170, 100] == red)  // the second polygon
        #expect(image[10, 10] == white)  // outside
    }
}
