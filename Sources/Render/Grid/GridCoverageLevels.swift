import CCairo
import MapModel

/// Grid ink is laid on the map with 17 coverage levels (multiples of 1/16), not 256.
///
/// Why: a grid crosses every tile, and each anti-aliased pixel of its lines and labels is a
/// blend of its colour with the map beneath at that pixel's coverage. With 256 levels those
/// blends took most grid tiles just past the 256 colours of an exact palette (602 of the 962
/// tiles of the New York MGRS pyramid had 257 to 1,000 colours), so they were encoded as RGB:
/// three bytes a pixel for the compressor instead of one, and 1.7 times the bytes of output.
/// Sixteen steps leave edges as smooth as the eye tells apart at 100% (the largest change in
/// a pixel is 1/32 of the difference between the ink and the map), and both the line raster
/// and the label sprites keep their bytes independent of where a tile is drawn.
enum GridCoverageLevels {
    static let steps = 16

    /// The level (0 to `steps`) nearest an 8-bit coverage.
    @inline(__always)
    static func level(_ coverage: UInt32) -> UInt32 {
        (coverage &* UInt32(steps) &+ 127) / 255
    }

    /// A level's coverage in bytes, rounded as the sprites' are (level 0 is 0, the last 255).
    static func coverage(level: UInt32) -> UInt32 {
        (level &* 255 &+ UInt32(steps) / 2) / UInt32(steps)
    }

    /// Rounds the pixels of a label sprite (premultiplied ARGB32, text `color` drawn over a
    /// `halo` on transparent) to the levels: each pixel is `u` text over `v` halo (u + v its
    /// alpha), found by least squares over its four channels; its alpha and its share of text
    /// are rounded to sixteenths and the pixel made again from them. Pixels of full text or
    /// full halo keep their colour exactly. Sprites in other colours (translucent text or
    /// halo) are left as drawn. Returns how many pixels were solved (tests: the rest came from
    /// the table of pixels made).
    @discardableResult
    static func quantizeSprite(_ surface: OpaquePointer, color: Color, halo: Color?) -> Int {
        guard color.alpha == 1, halo.map({ $0.alpha == 1 }) ?? true,
            let raw = cairo_image_surface_get_data(surface)
        else { return 0 }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let text = SIMD4<Double>(color.red, color.green, color.blue, 1)
        let under = halo.map { SIMD4<Double>($0.red, $0.green, $0.blue, 1) } ?? SIMD4<Double>()
        // The normal equations of p = u text + v halo, and their determinant.
        let tt = (text * text).sum()
        let th = (text * under).sum()
        let hh = (under * under).sum()
        let det = tt * hh - th * th
        let steps = Double(GridCoverageLevels.steps)
        // The result is a function of the pixel alone, and a sprite's pixels repeat: runs of
        // full text and full halo, and the same edge blends along its strokes, not only side
        // by side. A small table of the pixels made, by a hash of the pixel, answers them
        // where remembering the last pixel alone solved every edge pixel. Key 0 is free:
        // pixels of alpha 0 are skipped before the table.
        var solved = 0
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * tableSize) { table in
            table.initialize(repeating: 0)
            for y in 0..<height {
                let row = (raw + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
                for x in 0..<width {
                    let p = row[x]
                    guard p >> 24 != 0 else { continue }
                    let slot = 2 * Int((p &* 0x9E37_79B1) >> (32 - tableBits))
                    if table[slot] == p {
                        row[x] = table[slot + 1]
                        continue
                    }
                    solved &+= 1
                    let bytes = SIMD4<UInt32>(p >> 16, p >> 8, p, p >> 24) & 0xFF
                    let channels = SIMD4<Double>(bytes) / 255
                    var u = channels.w
                    if det > 1e-6 {
                        // Text and halo tell apart: solve for both.
                        let pt = (channels * text).sum()
                        let ph = (channels * under).sum()
                        u = (pt * hh - ph * th) / det
                    }
                    let alpha = rounded(channels.w * steps) / steps
                    let share = rounded(max(0, min(alpha, u)) * steps) / steps
                    let rest: Double = alpha - share
                    let made: SIMD4<Double> = (text * share + under * rest) * 255
                    // Within 0...255: the shares are at least 0 and add up to at most 1.
                    func byte(_ v: Double) -> UInt32 { UInt32(rounded(v)) }
                    let quantized = byte(made.w) << 24 | byte(made.x) << 16 | byte(made.y) << 8 | byte(made.z)
                    table[slot] = p
                    table[slot + 1] = quantized
                    row[x] = quantized
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return solved
    }

    /// Pixels made remembered by `quantizeSprite`, a power of two.
    static let tableBits = 8
    static let tableSize = 1 << tableBits

    /// `v.rounded()` (half away from zero) for 0 <= v < 2^51 (and -0.0), without the library
    /// call Swift makes for it: the whole part (`GridLineRaster.floor`), one up when the
    /// rest, exact here, is at least a half. Six to ten per sprite pixel.
    @inline(__always)
    static func rounded(_ v: Double) -> Double {
        let whole = Double(GridLineRaster.floor(v))
        return v - whole >= 0.5 ? whole + 1 : whole
    }
}
