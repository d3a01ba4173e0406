import Geodesy
import MapModel
import Testing

@testable import Render

@Suite struct ViewTests {
    @Test func zoomZeroIsTheWebMercatorQuadScale() throws {
        let view = try View.tiles(z: 0, x: 0, y: 0)
        // OGC WebMercatorQuad, TileMatrix 0: 559082264.0287178.
        #expect(abs(view.scale - 559_082_264.028_717_8) < 1e-6)
        #expect(abs(try View.tiles(z: 10, x: 0, y: 0).scale - 545_978.773_466_5) < 1e-6)
        // @2x tiles: twice the pixels, the same scale.
        let retina = try View.tiles(z: 10, x: 0, y: 0, pixelRatio: 2)
        #expect(retina.width == 512 && abs(retina.scale - 545_978.773_466_5) < 1e-6)
    }

    @Test func tileExtentIsItsWebMercatorBounds() throws {
        let h = WebMercator.halfWorld
        let view = try View.tiles(z: 1, x: 1, y: 0)
        #expect(view.extent == Rect(minX: 0, minY: 0, maxX: h, maxY: h))
        let block = try View.tiles(z: 3, x: 2, y: 5, columns: 2, rows: 3)
        let tile = 2 * h / 8
        #expect(abs(block.extent.minX - (-h + 2 * tile)) < 1e-6)
        #expect(abs(block.extent.maxY - (h - 5 * tile)) < 1e-6)
        #expect(abs(block.extent.minY - (h - 8 * tile)) < 1e-6)
        #expect(block.width == 512 && block.height == 768)
    }

    @Test func centredViewHasTheScaleAsked() throws {
        let view = try View.centered(longitude: -75, latitude: 45, scale: 50_000, width: 800, height: 600, dpi: 300)
        #expect(abs(view.scale - 50_000) < 1e-6)
        // 1 mm of paper is 50 m of projected map at 1:50,000.
        #expect(abs(view.resolution * (300 / 25.4) - 50) < 1e-9)
        let extent = view.extent
        #expect(abs(extent.centerX - WebMercator.x(longitude: -75)) < 1e-6)
        #expect(abs(extent.centerY - WebMercator.y(latitude: 45)) < 1e-6)
    }

    @Test func bboxGrowsToTheImageShape() throws {
        let view = try View.fitting(west: -10, south: -10, east: 10, north: 10, width: 400, height: 200)
        let extent = view.extent
        // The box is square in metres; a 2:1 image widens it, keeping the height.
        #expect(abs(extent.height - 2 * WebMercator.y(latitude: 10)) < 1e-6)
        #expect(abs(extent.width - 2 * extent.height) < 1e-6)
    }

    @Test func badViewsAreRejected() {
        #expect(throws: RenderError.self) {
            try View.fitting(west: 10, south: 0, east: -10, north: 5, width: 10, height: 10)
        }
        #expect(throws: RenderError.self) {
            try View.fitting(west: -190, south: 0, east: 10, north: 5, width: 10, height: 10)
        }
        #expect(throws: RenderError.self) {
            try View.centered(longitude: 0, latitude: 0, scale: 0, width: 10, height: 10)
        }
        #expect(throws: RenderError.self) {
            try View.centered(longitude: 0, latitude: 0, scale: 1000, width: 100_000, height: 100_000)
        }
        #expect(throws: RenderError.self) {
            try View.centered(longitude: 0, latitude: 0, scale: 1000, width: 0, height: 10)
        }
    }
}
