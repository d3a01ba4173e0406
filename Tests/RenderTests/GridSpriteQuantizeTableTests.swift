import CCairo
import MapModel
import Testing

@testable import Render

/// `GridCoverageLevels.quantizeSprite` remembers the pixels it has made in a small table: a
/// sprite's edge blends repeat, not only in runs, and each is solved once.
@Suite struct GridSpriteQuantizeTableTests {
    static let text = Color(red: 0.1, green: 0.2, blue: 0.6, alpha: 1)
    static let halo = Color(red: 1, green: 1, blue: 0.9, alpha: 1)

    /// A premultiplied pixel of `u` text over `v` halo (u + v at most 1).
    static func blend(_ u: Double, _ v: Double) -> UInt32 {
        func byte(_ t: Double, _ h: Double) -> UInt32 { UInt32((255 * (u * t + v * h)).rounded()) }
        return byte(1, 1) << 24 | byte(text.red, halo.red) << 16 | byte(text.green, halo.green) << 8
            | byte(text.blue, halo.blue)
    }

    /// A surface of `pixels`, row by row, `width` a row.
    static func surface(_ pixels: [UInt32], width: Int) throws -> CairoSurface {
        let surface = try CairoSurface.image(width: width, height: pixels.count / width)
        let raw = try #require(cairo_image_surface_get_data(surface.pointer))
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        for (i, p) in pixels.enumerated() {
            (raw + (i / width) * stride + (i % width) * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
                $0.pointee = p
            }
        }
        cairo_surface_mark_dirty(surface.pointer)
        return surface
    }

    static func pixels(_ surface: CairoSurface) -> [UInt32] {
        surface.withPixels { bytes in
            (0..<surface.height).flatMap { y in
                (0..<surface.width).map { x in bytes.load(fromByteOffset: y * surface.stride + x * 4, as: UInt32.self) }
            }
        }
    }

    /// Edge blends cycling through a row (no two neighbours alike) and transparent pixels
    /// between: each distinct blend is solved once (remembering only the last pixel solved
    /// every one), and every pixel is what quantizing it alone gives.
    @Test func repeatedBlendsAreSolvedOnceAndMadeAlike() throws {
        let blends = [(0.3, 0.5), (0.0, 0.7), (0.6, 0.4), (0.9, 0.0), (0.12, 0.2)].map(Self.blend)
        let width = 40
        var pixels: [UInt32] = []
        for i in 0..<(width * 6) {
            pixels.append(i % 7 == 6 ? 0 : blends[(i % 7) % blends.count])
        }
        let surface = try Self.surface(pixels, width: width)
        let solved = GridCoverageLevels.quantizeSprite(surface.pointer, color: Self.text, halo: Self.halo)
        #expect(solved == Set(pixels.filter { $0 != 0 }).count)
        for (i, made) in Self.pixels(surface).enumerated() {
            let alone = try Self.surface([pixels[i]], width: 1)
            GridCoverageLevels.quantizeSprite(alone.pointer, color: Self.text, halo: Self.halo)
            #expect(made == Self.pixels(alone)[0], "pixel \(i)")
        }
    }

    /// More distinct pixels than the table holds, so that slots are shared and overwritten:
    /// still every pixel is what quantizing it alone gives.
    @Test func collidingPixelsAreMadeAlike() throws {
        var pixels: [UInt32] = []
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<(4 * GridCoverageLevels.tableSize) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let u = Double(state >> 40 & 0xFF) / 255
            let v = Double(state >> 48 & 0xFF) / 255 * (1 - u)
            pixels.append(Self.blend(u, v))
        }
        // Each pixel again, in another order, so that repeats meet other slots' pixels.
        pixels += pixels.reversed()
        let surface = try Self.surface(pixels, width: 64)
        let solved = GridCoverageLevels.quantizeSprite(surface.pointer, color: Self.text, halo: Self.halo)
        #expect(solved < pixels.count)
        for (i, made) in Self.pixels(surface).enumerated() {
            let alone = try Self.surface([pixels[i]], width: 1)
            GridCoverageLevels.quantizeSprite(alone.pointer, color: Self.text, halo: Self.halo)
            #expect(made == Self.pixels(alone)[0], "pixel \(i)")
        }
    }
}
