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

/// How a piece of text is laid out besides its font, sizes in pixels.
struct TextOptions: Hashable {
    /// Wrap at this width (lines centred); nil for one line.
    var maxWidth: Double?
    /// Extra space after each character.
    var letterSpacing: Double = 0
    /// Distance between baselines; nil for the font's own.
    var lineHeight: Double?

    static let plain = TextOptions()
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
    /// The layouts asked for in the view being drawn, and in the one before it (`beginView`):
    /// what a view draws is asked for again in that view (measured for placement, then drawn
    /// in several tiles) and by its neighbour (the labels across their edge), not by the
    /// views after. Kept for the whole worker, 20,000 of them, they followed the data: a
    /// worker of the large benchmark held some 20 MB of shaped places at zoom 8, most only
    /// measured for placement once, its 1/10 sample a third of it.
    private var layouts: [LayoutKey: TextLayout] = [:]
    private var previousLayouts: [LayoutKey: TextLayout] = [:]
    /// Point labels' extents for placement, kept from zoom to zoom (`TextMeasures`), shared by
    /// the workers of one map (`TextMeasures.shared`).
    let measures: TextMeasures

    private struct LayoutKey: Hashable {
        let text: String
        let font: FontSpec
        let options: TextOptions
    }

    init(fonts: FontConfiguration, measures: TextMeasures = TextMeasures()) {
        self.fonts = fonts
        self.measures = measures
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
        previousLayouts.removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// The shaped text, cached for this view and the next: the same label is measured for
    /// placement and then drawn, often in many tiles and in the neighbouring view.
    func layout(_ text: String, font: FontSpec, options: TextOptions = .plain) -> TextLayout {
        let key = LayoutKey(text: text, font: font, options: options)
        if let cached = layouts[key] { return cached }
        // Bounded within one view too, whatever it asks for.
        if layouts.count >= TextEngine.viewLayouts { layouts.removeAll(keepingCapacity: true) }
        let layout = previousLayouts.removeValue(forKey: key) ?? shape(text, font: font, options: options)
        layouts[key] = layout
        return layout
    }

    /// The extents of the text laid out, for a label measured and not drawn: from a layout
    /// kept, else from one made and let go (it is not kept: most measured texts are never
    /// drawn).
    func extents(_ text: String, font: FontSpec, options: TextOptions = .plain) -> TextExtents {
        let key = LayoutKey(text: text, font: font, options: options)
        if let cached = layouts[key] ?? previousLayouts[key] { return cached.extents }
        return shape(text, font: font, options: options).extents
    }

    /// A new layout (counted for tests).
    private func shape(_ text: String, font: FontSpec, options: TextOptions) -> TextLayout {
        shaped &+= 1
        return TextLayout(context: context, text: text, font: font, options: options)
    }

    /// Texts this engine shaped (tests).
    private(set) var shaped = 0

    /// The extents of the text laid out, from `measures`: measured once per text, font and
    /// options for every engine sharing them (a map's workers), bit for bit Pango's, where
    /// `extents` may shape the same text again in every view.
    func sharedExtents(_ text: String, font: FontSpec, options: TextOptions = .plain) -> TextExtents {
        sharedLookups &+= 1
        return measures.extents(text, font: font, options: options) { extents(text, font: font, options: options) }
    }

    /// Texts looked up in `measures` (tests).
    private(set) var sharedLookups = 0

    /// Grid label texts this engine shaped to measure (`sharedGridExtents`), kept until their
    /// sprite takes them (`takeGridLayout`): a grid text is measured in one view (a label
    /// region) and drawn into its sprite in another (a metatile), further apart than the
    /// views' layouts are kept, so each drawn text was shaped twice. Only the texts of one
    /// grid's labels, a few hundred at most; bounded all the same.
    private var gridLayouts: [LayoutKey: TextLayout] = [:]
    static let maxGridLayouts = 1_024

    /// `sharedExtents` for a grid label's text, keeping the layout when this engine shapes it.
    func sharedGridExtents(_ text: String, font: FontSpec) -> TextExtents {
        sharedLookups &+= 1
        return measures.extents(text, font: font, options: .plain) {
            let key = LayoutKey(text: text, font: font, options: .plain)
            if let kept = gridLayouts[key] { return kept.extents }
            if gridLayouts.count >= TextEngine.maxGridLayouts { gridLayouts.removeAll(keepingCapacity: true) }
            let layout = shape(text, font: font, options: .plain)
            gridLayouts[key] = layout
            return layout.extents
        }
    }

    /// The layout of a grid label's text, for its sprite: the one kept when it was measured
    /// (let go from the table: the sprite is kept instead), else `layout`'s.
    func takeGridLayout(_ text: String, font: FontSpec) -> TextLayout {
        if !gridLayouts.isEmpty,
            let kept = gridLayouts.removeValue(forKey: LayoutKey(text: text, font: font, options: .plain))
        {
            return kept
        }
        return layout(text, font: font)
    }

    /// Grid layouts kept now (for tests).
    var keptGridLayouts: Int { gridLayouts.count }

    /// A new view begins: the layouts of the view before last are let go.
    func beginView() {
        previousLayouts = layouts
        layouts = [:]
    }

    /// The most layouts one view keeps.
    static let viewLayouts = 20_000

    /// Layouts kept now (for tests).
    var keptLayouts: Int { layouts.count + previousLayouts.count }
}

/// One shaped piece of text (a PangoLayout).
final class TextLayout {
    let pointer: OpaquePointer
    let extents: TextExtents

    init(context: OpaquePointer, text: String, font: FontSpec, options: TextOptions = .plain) {
        pointer = pango_layout_new(context)
        let description = pango_font_description_new()
        pango_font_description_set_family(description, font.family)
        pango_font_description_set_weight(description, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(description, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_font_description_set_absolute_size(description, font.sizePixels * Double(PANGO_SCALE))
        pango_layout_set_font_description(pointer, description)
        pango_font_description_free(description)
        pango_layout_set_text(pointer, text, -1)
        if let width = options.maxWidth {
            pango_layout_set_width(pointer, Int32((width * Double(PANGO_SCALE)).rounded()))
            pango_layout_set_wrap(pointer, PANGO_WRAP_WORD)
        }
        // Lines of a label are centred on each other, wrapped or broken by the text itself.
        if options.maxWidth != nil || text.contains("\n") { pango_layout_set_alignment(pointer, PANGO_ALIGN_CENTER) }
        if options.letterSpacing != 0 || options.lineHeight != nil {
            let attributes = pango_attr_list_new()
            if options.letterSpacing != 0 {
                pango_attr_list_insert(
                    attributes,
                    pango_attr_letter_spacing_new(Int32((options.letterSpacing * Double(PANGO_SCALE)).rounded())))
            }
            if let height = options.lineHeight {
                pango_attr_list_insert(
                    attributes, pango_attr_line_height_new_absolute(Int32((height * Double(PANGO_SCALE)).rounded())))
            }
            pango_layout_set_attributes(pointer, attributes)
            pango_attr_list_unref(attributes)
        }
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        let unit = 1 / Double(PANGO_SCALE)
        extents = TextExtents(
            x: Double(logical.x) * unit, y: Double(logical.y) * unit,
            width: Double(logical.width) * unit, height: Double(logical.height) * unit)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// One glyph of the first line, for drawing glyphs one by one (text along lines).
    struct Glyph {
        let font: UnsafeMutablePointer<PangoFont>
        let id: UInt32
        /// Where the glyph starts along the line and its advance, in pixels.
        let x: Double
        let width: Double
        /// Pango's own shift of the glyph (marks, kerning), in pixels.
        let xOffset: Double
        let yOffset: Double
    }

    /// The first line's glyphs in visual order (left to right on the page).
    private(set) lazy var glyphs: [Glyph] = {
        guard let line = pango_layout_get_line_readonly(pointer, 0) else { return [] }
        let unit = 1 / Double(PANGO_SCALE)
        var glyphs: [Glyph] = []
        var x = 0.0
        var node = line.pointee.runs
        while let item = node {
            defer { node = item.pointee.next }
            guard let run = item.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                let string = run.pointee.glyphs, let font = run.pointee.item.pointee.analysis.font
            else { continue }
            for i in 0..<Int(string.pointee.num_glyphs) {
                let info = string.pointee.glyphs[i]
                let width = Double(info.geometry.width) * unit
                glyphs.append(
                    Glyph(
                        font: font, id: info.glyph, x: x, width: width, xOffset: Double(info.geometry.x_offset) * unit,
                        yOffset: Double(info.geometry.y_offset) * unit))
                x += width
            }
        }
        return glyphs
    }()

    /// The first line's baseline below the layout's top, in pixels.
    var baseline: Double { Double(pango_layout_get_baseline(pointer)) / Double(PANGO_SCALE) }

    /// Draws the text with its logical box's top-left corner at (x, y): first the halo, a
    /// stroke of twice its width around the glyph outlines, then the glyphs.
    func draw(in context: CairoContext, x: Double, y: Double, color: Color, halo: (color: Color, width: Double)?) {
        let cr = context.pointer
        let originX = x - extents.x
        let originY = y - extents.y
        if let halo {
            context.strokeHalo(halo) {
                context.newPath()
                context.moveTo(originX, originY)
                pango_cairo_layout_path(cr, pointer)
            }
        }
        context.newPath()
        context.moveTo(originX, originY)
        context.setColor(color)
        context.marks += 1
        pango_cairo_show_layout(cr, pointer)
    }
}

extension CairoContext {
    /// A text halo: the outlines `addPath` makes, stroked `halo.width` wide on each side with
    /// round joins, under the text drawn next.
    func strokeHalo(_ halo: (color: Color, width: Double), addPath: () -> Void) {
        guard halo.width > 0 else { return }
        save()
        addPath()
        setColor(halo.color)
        setLineWidth(halo.width * 2)
        setLineJoin(.round)
        stroke()
        restore()
    }
}
