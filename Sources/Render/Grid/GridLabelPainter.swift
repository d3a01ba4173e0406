import CCairo
import CPango
import MapModel

/// Draws grid labels: the halo, a stroke around the glyph outlines, then the glyphs.
///
/// A grid repeats the same few dozen texts on every view, and stroking glyph outlines for
/// halos is most of a label's cost, so on image surfaces each label is drawn once into a
/// small image (a sprite) and then copied wherever it appears. Labels sit on whole pixels,
/// so a copy is exactly what drawing in place would give, in every tile. Vector output
/// (PDF, SVG) draws the text itself, so it stays text.
final class GridLabelPainter {
    private struct Key: Hashable {
        let text: String
        let font: FontSpec
        let color: Color
        let haloColor: Color?
        let haloWidth: Double

        /// The text and size alone: a map's grid labels differ in little else, and hashing
        /// the font's family and both colours made each copy's lookup cost a fifth of the
        /// copy (equality still compares every field).
        func hash(into hasher: inout Hasher) {
            hasher.combine(text)
            hasher.combine(font.sizePixels)
        }
    }

    private final class Sprite {
        let surface: CairoSurface
        /// Where the text box's top-left corner is in the sprite.
        let inset: Int
        let width: Int
        let height: Int
        /// The sprite's pixels as pixman's source image, for `DirectTarget`.
        let image: OpaquePointer?

        init(surface: CairoSurface, inset: Int, width: Int, height: Int) {
            self.surface = surface
            self.inset = inset
            self.width = width
            self.height = height
            let data = cairo_image_surface_get_data(surface.pointer)
            image = data.flatMap { data in
                pixman_image_create_bits(
                    PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                    UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                    cairo_image_surface_get_stride(surface.pointer))
            }
        }

        deinit {
            if let image { pixman_image_unref(image) }
        }
    }

    /// An image surface that sprites are composited onto with pixman, as `cairo_paint` does
    /// there (OVER, a source at whole pixels, no mask): the same pixman call on the same
    /// pixels, without Cairo's gstate, pattern and compositor set-up, which cost as much as
    /// the blend for a sprite of a few hundred pixels (1,984 copies over the New York MGRS
    /// pyramid: 12.8 M instructions, 6.4 M of them pixman's). Only for a context that would
    /// paint straight onto its target: no transformation, group, clip or other operator.
    final class DirectTarget {
        private let surface: OpaquePointer
        private let image: OpaquePointer

        init?(_ context: CairoContext) {
            let cr = context.pointer
            guard let surface = cairo_get_target(cr), cairo_get_group_target(cr) == surface,
                cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
                cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32,
                cairo_get_operator(cr) == CAIRO_OPERATOR_OVER
            else { return nil }
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            guard m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0, m.x0 == 0, m.y0 == 0 else { return nil }
            var ox = 0.0
            var oy = 0.0
            cairo_surface_get_device_offset(surface, &ox, &oy)
            var sx = 0.0
            var sy = 0.0
            cairo_surface_get_device_scale(surface, &sx, &sy)
            guard ox == 0, oy == 0, sx == 1, sy == 1 else { return nil }
            let width = cairo_image_surface_get_width(surface)
            let height = cairo_image_surface_get_height(surface)
            // No clip: the clip, as rectangles, is the whole surface.
            guard let clip = cairo_copy_clip_rectangle_list(cr) else { return nil }
            defer { cairo_rectangle_list_destroy(clip) }
            guard clip.pointee.status == CAIRO_STATUS_SUCCESS, clip.pointee.num_rectangles == 1,
                let r = clip.pointee.rectangles?.pointee, r.x <= 0, r.y <= 0,
                r.x + r.width >= Double(width), r.y + r.height >= Double(height)
            else { return nil }
            cairo_surface_flush(surface)
            guard let data = cairo_image_surface_get_data(surface),
                let image = pixman_image_create_bits(
                    PIXMAN_a8r8g8b8, width, height, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                    cairo_image_surface_get_stride(surface))
            else { return nil }
            self.surface = surface
            self.image = image
        }

        deinit {
            pixman_image_unref(image)
        }

        fileprivate func composite(_ sprite: OpaquePointer, x: Int32, y: Int32, width: Int32, height: Int32) {
            pixman_image_composite32(PIXMAN_OP_OVER, sprite, nil, image, 0, 0, 0, 0, x, y, width, height)
            cairo_surface_mark_dirty_rectangle(surface, x, y, width, height)
        }
    }

    private let text: TextEngine
    private var sprites: [Key: Sprite] = [:]
    /// Sprites copied onto a `DirectTarget` (tests).
    private(set) var directCopies = 0
    /// Bounds the cache (a tile job at fine levels sees many distinct values).
    static let maxSprites = 4096

    init(text: TextEngine) {
        self.text = text
    }

    /// Draws `label` with its text box's top-left corner at (x, y) in the context's units.
    ///
    /// A sprite already made is copied without asking for the text's layout: the engine's
    /// lookup (hashing the text and font, moving the layout into the view's cache) cost more
    /// than the copy, for every label of every metatile. `direct`: the context's target, when
    /// sprites may be composited onto it without Cairo.
    func draw(
        _ label: GridLabelCandidate, in context: CairoContext, x: Double, y: Double, direct: DirectTarget? = nil
    ) {
        if !label.turned, x == x.rounded(), y == y.rounded(),
            cairo_surface_get_type(context.surface.pointer) == CAIRO_SURFACE_TYPE_IMAGE
        {
            let key = Key(
                text: label.text, font: label.font, color: label.color, haloColor: label.halo?.color,
                haloWidth: label.halo?.width ?? 0)
            if let sprite = sprites[key] ?? sprite(label, key) {
                let left = x - Double(sprite.inset)
                let top = y - Double(sprite.inset)
                if let direct, let image = sprite.image, abs(left) < 0x4000_0000, abs(top) < 0x4000_0000 {
                    direct.composite(
                        image, x: Int32(left), y: Int32(top), width: Int32(sprite.width), height: Int32(sprite.height))
                    directCopies &+= 1
                    return
                }
                cairo_set_source_surface(context.pointer, sprite.surface.pointer, left, top)
                cairo_paint(context.pointer)
                return
            }
        }
        let layout = text.layout(label.text, font: label.font)
        if label.turned {
            // The text's start sits at the box's bottom-left corner and runs up the page.
            context.save()
            context.translate(x, y + label.textBox.height)
            context.rotate(-Double.pi / 2)
            layout.draw(in: context, x: 0, y: 0, color: label.color, halo: label.halo)
            context.restore()
            return
        }
        layout.draw(in: context, x: x, y: y, color: label.color, halo: label.halo)
    }

    /// A new sprite for `label`, kept under `key`; nil when no surface can be made.
    private func sprite(_ label: GridLabelCandidate, _ key: Key) -> Sprite? {
        if sprites.count >= GridLabelPainter.maxSprites { sprites.removeAll(keepingCapacity: true) }
        // Shaped when the text was measured, most often (`TextEngine.sharedGridExtents`).
        let layout = text.takeGridLayout(label.text, font: label.font)
        let inset = Int((label.halo?.width ?? 0).rounded(.up)) + 2
        let width = Int(layout.extents.width.rounded(.up)) + 2 * inset
        let height = Int(layout.extents.height.rounded(.up)) + 2 * inset
        guard let surface = try? CairoSurface.image(width: width, height: height) else { return nil }
        let context = CairoContext(surface)
        layout.draw(in: context, x: Double(inset), y: Double(inset), color: label.color, halo: label.halo)
        cairo_surface_flush(surface.pointer)
        GridCoverageLevels.quantizeSprite(surface.pointer, color: label.color, halo: label.halo?.color)
        let sprite = Sprite(surface: surface, inset: inset, width: width, height: height)
        sprites[key] = sprite
        return sprite
    }
}
