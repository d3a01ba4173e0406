import Geodesy
import MapModel
import Raster
import TestSupport
import Testing

@testable import Render

/// A plane that is Web Mercator shifted: drawing in it must give the same picture.
private struct ShiftedPlane: PlaneProjection {
    let identifier = "shifted"
    func forward(_ p: PlanePoint) -> PlanePoint { PlanePoint(x: p.x + 123_456, y: p.y - 654_321) }
    func inverse(_ p: PlanePoint) -> PlanePoint { PlanePoint(x: p.x - 123_456, y: p.y + 654_321) }
}

@Suite struct PlaneTests {
    @Test func aShiftedPlaneDrawsTheSamePicture() throws {
        let map = try LoadedMap.load(path: Repository.fixture("maps/world.json"))
        let mercator = try View.centered(longitude: 10, latitude: 50, scale: 20_000_000, width: 300, height: 200)
        let centre = mercator.extent.center
        let plane = ShiftedPlane()
        let shifted = plane.forward(centre)
        let inPlane = try View.centered(
            in: plane, x: shifted.x, y: shifted.y, scale: 20_000_000, width: 300, height: 200, dpi: View.standardDPI)
        #expect(abs(inPlane.extent.centerX - centre.x) < 1e-3)
        let a = try MapRenderer(map: map).renderImage(view: mercator)
        let b = try MapRenderer(map: map).renderImage(view: inPlane)
        // The origins differ by a fraction of a pixel after the shift, so compare loosely:
        // the same features and labels, at most a sliver of anti-aliasing apart.
        var different = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y]
                let q = b[x, y]
                if abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b)) > 60 {
                    different += 1
                }
            }
        }
        #expect(different < a.width * a.height / 100)
        #expect(a.inkedArea > 1000)
    }
}
