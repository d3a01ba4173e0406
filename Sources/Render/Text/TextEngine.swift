import CCairo
import CPango
import MapModel

/// A font, as labels ask for one: family, weight, slant and a size in pixels.
struct FontSpec: Hashable {
    var family: String
    var bold: Bool
    var italic: Bool
    var sizePixels: Double
}

/// The size of a piece of text laid out with Pango, in pixels: its logical box relative to
/// the layout's origin (the top-left corner where drawing starts).
struct TextExtents {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
}

/// Text shaping and drawing with Pango, for one render worker (Pango objects are not
/// thread-safe, so every worker owns its own engine). Hinting is off and glyph positions
/// are not rounded, so text looks the same at any position and on any machine.
final class TextEngine {
    private let fonts: FontConfiguration
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    /// The Pango context; page text (Page/PageTextLayout) makes its layouts from it too.
    let context: OpaquePointer
    private var layouts: [LayoutKey: TextLayout] = [:]

    private struct LayoutKey: Hashable {
        let text: String
        let font: FontSpec
    }

    init(fonts: FontConfiguration) {
        self.fonts = fonts
        fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        pango_fc_font_map_set_config(meridian_as_fc_font_map(fontMap), fonts.config)
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
    }

    deinit {
        layouts.removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// The shaped text, cached: the same label is measured for placement and then drawn,
    /// often in many tiles.
    func layout(_ text: String, font: FontSpec) -> TextLayout {
        let key = LayoutKey(text: text, font: font)
        if let cached = layouts[key] { return cached }
        if layouts.count > 20_000 { layouts.removeAll(keepingCapacity: true) }
        let layout = TextLayout(context: context, text: text, font: font)
        layouts[key] = layout
        return layout
    }
}

/// One shaped piece of text (a PangoLayout).
final class TextLayout {
    let pointer: OpaquePointer
    let extents: TextExtents

    init(context: OpaquePointer, text: String, font: FontSpec) {
        pointer = pango_layout_new(context)
        let description = pango_font_description_new()
        pango_font_description_set_family(description, font.family)
        pango_font_description_set_weight(description, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(description, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_font_description_set_absolute_size(description, font.sizePixels * Double(PANGO_SCALE))
        pango_layout_set_font_description(pointer, description)
        pango_font_description_free(description)
        pango_layout_set_text(pointer, text, -1)
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        let unit = 1 / Double(PANGO_SCALE)
        extents = TextExtents(
            x: Double(logical.x) * unit, y: Double(logical.y) * unit,
            width: Double(logical.width) * unit, height: Double(logical.height) * unit)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Draws the text with its logical box's top-left corner at (x, y): first the halo, a
    /// stroke of twice its width around the glyph outlines, then the glyphs.
    func draw(in context: CairoContext, x: Double, y: Double, color: Color, halo: (color: Color, width: Double)?) {
        let cr = context.pointer
        let originX = x - extents.x
        let originY = y - extents.y
        if let halo, halo.width > 0 {
            context.save()
            context.newPath()
            context.moveTo(originX, originY)
            pango_cairo_layout_path(cr, pointer)
            context.setColor(halo.color)
            context.setLineWidth(halo.width * 2)
            context.setLineJoin(.round)
            context.stroke()
            context.restore()
        }
        context.newPath()
        context.moveTo(originX, originY)
        context.setColor(color)
        pango_cairo_show_layout(cr, pointer)
    }
}
