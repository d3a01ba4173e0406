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
    }

    private struct Sprite {
        let surface: CairoSurface
        /// Where the text box's top-left corner is in the sprite.
        let inset: Int
    }

    private let text: TextEngine
    private var sprites: [Key: Sprite] = [:]
    /// Bounds the cache (a tile job at fine levels sees many distinct values).
    static let maxSprites = 4096

    init(text: TextEngine) {
        self.text = text
    }

    /// Draws `label` with its text box's top-left corner at (x, y) in the context's units.
    ///
    /// A sprite already made is copied without asking for the text's layout: the engine's
    /// lookup (hashing the text and font, moving the layout into the view's cache) cost more
    /// than the copy, for every label of every metatile.
    func draw(_ label: GridLabelCandidate, in context: CairoContext, x: Double, y: Double) {
        if !label.turned, x == x.rounded(), y == y.rounded(),
            cairo_surface_get_type(context.surface.pointer) == CAIRO_SURFACE_TYPE_IMAGE
        {
            let key = Key(
                text: label.text, font: label.font, color: label.color, haloColor: label.halo?.color,
                haloWidth: label.halo?.width ?? 0)
            if let sprite = sprites[key] ?? sprite(label, key) {
                cairo_set_source_surface(
                    context.pointer, sprite.surface.pointer, x - Double(sprite.inset), y - Double(sprite.inset))
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
        let layout = text.layout(label.text, font: label.font)
        let inset = Int((label.halo?.width ?? 0).rounded(.up)) + 2
        let width = Int(layout.extents.width.rounded(.up)) + 2 * inset
        let height = Int(layout.extents.height.rounded(.up)) + 2 * inset
        guard let surface = try? CairoSurface.image(width: width, height: height) else { return nil }
        let context = CairoContext(surface)
        layout.draw(in: context, x: Double(inset), y: Double(inset), color: label.color, halo: label.halo)
        cairo_surface_flush(surface.pointer)
        GridCoverageLevels.quantizeSprite(surface.pointer, color: label.color, halo: label.halo?.color)
        let sprite = Sprite(surface: surface, inset: inset)
        sprites[key] = sprite
        return sprite
    }
}
