import CCairo
import Testing

@testable import Render

/// Surfaces made over kept memory (`PixelMemory`): over its first bytes, rows Cairo's stride
/// apart, and none where the memory is too small.
@Suite struct PixelMemoryTests {
    @Test func surfacesLieOverTheMemoryTheyAreMadeIn() throws {
        let memory = PixelMemory(byteCount: CairoSurface.imageByteCount(width: 300, height: 200))
        for (width, height) in [(300, 200), (17, 5), (200, 300)] {
            let surface = try #require(try CairoSurface.image(width: width, height: height, in: memory))
            #expect(surface.width == width && surface.height == height)
            #expect(surface.stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))))
            surface.withPixels { #expect($0.baseAddress == UnsafeRawPointer(memory.base)) }
        }
        // One row too many.
        #expect(try CairoSurface.image(width: 300, height: 201, in: memory) == nil)
        #expect(try CairoSurface.image(width: 0, height: 10, in: memory) == nil)
    }

    /// The memory outlives its owner while a surface over it lives: the surface holds it.
    @Test func aSurfaceKeepsItsMemory() throws {
        var memory: PixelMemory? = PixelMemory(byteCount: 64 * 64 * 4)
        weak let watched = memory
        let surface = try #require(try CairoSurface.image(width: 64, height: 64, in: memory!))
        memory = nil
        #expect(watched != nil)
        let context = CairoContext(surface)
        cairo_set_source_rgb(context.pointer, 1, 0, 0)
        cairo_paint(context.pointer)
        surface.withPixels { #expect($0.load(as: UInt32.self) == 0xFFFF_0000) }
    }
}
