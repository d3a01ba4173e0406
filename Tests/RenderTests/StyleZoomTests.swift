import Foundation
import MapModel
import Testing

@testable import Render

/// The zoom expressions see comes from the view's scale denominator, so a style means the same
/// at any tile size, pixel density or output: the zoom of 256 px tiles at the 0.28 mm pixel.
@Suite struct StyleZoomTests {
    func zoom(_ view: View) -> Double {
        SymbolScale(layer: Layer(name: "a", source: "a"), map: MapDocument(path: "m"), view: view).zoom
    }

    @Test func tilesOfAnySizeAndDensityShareTheZoomOfTheirScale() throws {
        #expect(zoom(try View.tiles(z: 5, x: 3, y: 9)) == 5)
        // A 512 px tile at z4 has the pixels, and the scale, of 256 px tiles at z5.
        #expect(zoom(try View.tiles(z: 4, x: 3, y: 9, tileSize: 512)) == 5)
        // @2x doubles pixels and dpi: the scale, and the zoom, stay those of 1x.
        #expect(zoom(try View.tiles(z: 5, x: 3, y: 9, pixelRatio: 2)) == 5)
    }

    @Test func imagesAtAScaleHaveItsZoomWhateverTheirDPI() throws {
        // Zoom 0 is 1:559,082,264.03 (156,543.03 m per pixel / 0.00028 m); 1:1,000,000 is
        // log2(559.08226403) = 9.12692 zooms further in.
        for dpi in [90.714, 300.0] {
            let view = try View.centered(
                longitude: 10, latitude: 50, scale: 1_000_000, width: 100, height: 100, dpi: dpi)
            #expect(abs(zoom(view) - 9.126_916_77) < 1e-6)
        }
    }
}
