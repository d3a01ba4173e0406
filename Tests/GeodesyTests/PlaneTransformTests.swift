import Foundation
import Testing

@testable import Geodesy

/// The map-to-image transform against the XYZ tile formulas written out from their definition
/// (OSM's slippy map tilenames), not from Web Mercator metres as the code does.
@Suite struct PlaneTransformTests {
    /// Global pixel of a position at zoom z with 256 px tiles, straight from longitude and latitude.
    static func slippyPixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let n = 256 * pow(2, Double(zoom))
        let phi = latitude * .pi / 180
        return ((longitude + 180) / 360 * n, (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n)
    }

    @Test func webMercatorGlobalPixelsAreTilePixels() {
        for zoom in [0, 3, 12, 19] {
            let transform = PlaneTransform.webMercator(metresPerPixel: WebMercator.resolution(zoom: zoom))
            for (lat, lon) in [(0.0, 0.0), (51.4779, -0.0015), (-33.86, 151.21), (84.9, -179.9), (-70, 20)] {
                let expected = Self.slippyPixel(latitude: lat, longitude: lon, zoom: zoom)
                let got = transform.global(WebMercator.forward(latitude: lat, longitude: lon))
                // 1e-9 of the world's width in pixels: rounding only.
                let tolerance = 256 * pow(2, Double(zoom)) * 1e-12
                #expect(
                    abs(got.x - expected.x) < tolerance && abs(got.y - expected.y) < tolerance, "\(lat) \(lon) z\(zoom)"
                )
            }
        }
    }

    /// An offset moves the image, not the map: image = global - offset, exactly, and back.
    @Test func offsetAndInverse() {
        let transform = PlaneTransform.webMercator(
            metresPerPixel: WebMercator.resolution(zoom: 7), offset: PlanePoint(x: 16_384, y: 12_288))
        let p = WebMercator.forward(latitude: 40.76, longitude: -73.97)
        let g = transform.global(p)
        let i = transform.image(p)
        #expect(i.x == g.x - 16_384 && i.y == g.y - 12_288)
        #expect(transform.global(image: i) == g)
        let back = transform.plane(image: i)
        #expect(abs(back.x - p.x) < 1e-6 && abs(back.y - p.y) < 1e-6)
    }

    /// A rectangle of the plane (y north) lands with its top edge at the image's top: a page frame
    /// of 200 x 150 mm at (20, 30) showing 5 x 3.75 km at 1:25,000.
    @Test func rectanglesFlipTheirVerticalAxis() {
        let extent = Rect(minX: 583_000, minY: 4_510_000, maxX: 588_000, maxY: 4_513_750)
        let page = PlaneTransform(
            origin: PlanePoint(x: extent.minX, y: extent.maxY), metresPerUnit: 25, offset: PlanePoint(x: -20, y: -30))
        let topLeft = page.image(PlanePoint(x: extent.minX, y: extent.maxY))
        let bottomRight = page.image(PlanePoint(x: extent.maxX, y: extent.minY))
        #expect(topLeft == PlanePoint(x: 20, y: 30) && bottomRight == PlanePoint(x: 220, y: 180))
        #expect(page.global(extent) == Rect(minX: 0, minY: 0, maxX: 200, maxY: 150))
        #expect(page.plane(global: Rect(minX: 0, minY: 0, maxX: 200, maxY: 150)) == extent)
    }
}
