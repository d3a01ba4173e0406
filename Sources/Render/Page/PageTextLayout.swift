import CCairo
import CPango
import Geodesy
import MapModel

/// The size of a page text in millimetres: its logical box, and the baseline's distance
/// below the box's top.
public struct PageTextSize: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var baseline: Double
}

/// A page text shaped with Pango: one layout whose runs carry their own font attributes,
/// so runs of different sizes share a baseline. Laid out in points, the unit font sizes
/// are given in, and reported in millimetres.
final class PageTextLayout {
    private let pointer: OpaquePointer
    /// The logical box in points, relative to the layout's origin.
    private let box: PangoRectangle
    private let baselinePoints: Double
    private let turned: Bool

    static let millimetresPerPoint = 25.4 / 72

    init(_ text: PageText, engine: TextEngine) {
        pointer = pango_layout_new(engine.context)
        pango_layout_set_text(pointer, text.string, -1)
        let attributes = pango_attr_list_new()
        var start: UInt32 = 0
        for run in text.runs {
            let end = start + UInt32(run.text.utf8.count)
            let font = pango_font_description_new()
            pango_font_description_set_family(font, run.font.family)
            pango_font_description_set_weight(font, run.font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
            pango_font_description_set_style(font, run.font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
            pango_font_description_set_absolute_size(font, run.font.size * Double(PANGO_SCALE))
            let attribute = pango_attr_font_desc_new(font)!
            attribute.pointee.start_index = start
            attribute.pointee.end_index = end
            pango_attr_list_insert(attributes, attribute)  // the list takes ownership
            pango_font_description_free(font)
            start = end
        }
        pango_layout_set_attributes(pointer, attributes)
        pango_attr_list_unref(attributes)
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        box = logical
        baselinePoints = Double(pango_layout_get_baseline(pointer)) / Double(PANGO_SCALE)
        turned = text.turned
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The box on the page: a turned text's is as wide as the text is tall, and its
    /// baseline is measured from the box's left.
    var size: PageTextSize {
        let unit = PageTextLayout.millimetresPerPoint / Double(PANGO_SCALE)
        let width = Double(box.width) * unit
        let height = Double(box.height) * unit
        return PageTextSize(
            width: turned ? height : width, height: turned ? width : height,
            baseline: (baselinePoints - Double(box.y) / Double(PANGO_SCALE)) * PageTextLayout.millimetresPerPoint)
    }

    /// Draws the text in a context whose user units are millimetres.
    func draw(_ text: PageText, in context: CairoContext) {
        let size = self.size
        let corner = size.topLeft(at: text.position, anchor: text.anchor)
        let cr = context.pointer
        context.save()
        if turned {
            // The text starts at the box's bottom-left corner and runs up the page.
            context.translate(corner.x, corner.y + size.height)
            context.rotate(-Double.pi / 2)
        } else {
            context.translate(corner.x, corner.y)
        }
        let k = PageTextLayout.millimetresPerPoint
        context.scale(k, k)
        let originX = -Double(box.x) / Double(PANGO_SCALE)
        let originY = -Double(box.y) / Double(PANGO_SCALE)
        if let halo = text.halo, halo.width > 0 {
            context.newPath()
            context.moveTo(originX, originY)
            pango_cairo_layout_path(cr, pointer)
            context.setColor(halo.color)
            context.setLineWidth(2 * halo.width / k)
            context.setLineJoin(.round)
            context.stroke()
        }
        context.newPath()
        context.moveTo(originX, originY)
        context.setColor(text.color)
        pango_cairo_show_layout(cr, pointer)
        context.restore()
    }
}

extension MapRenderer {
    /// The size of a page text set in this map's fonts, in millimetres. Sheets measure their
    /// marginalia with this before placing them.
    public func measure(_ text: PageText) -> PageTextSize {
        PageTextLayout(text, engine: self.text).size
    }
}

extension PageTextSize {
    /// The top-left corner of the logical box (mm) that puts `anchor` at `position`.
    public func topLeft(at position: PlanePoint, anchor: PageTextAnchor) -> PlanePoint {
        let x: Double
        switch anchor.horizontal {
        case .left: x = position.x
        case .center: x = position.x - width / 2
        case .right: x = position.x - width
        }
        let y: Double
        switch anchor.vertical {
        case .top: y = position.y
        case .middle: y = position.y - height / 2
        case .baseline: y = position.y - baseline
        case .bottom: y = position.y - height
        }
        return PlanePoint(x: x, y: y)
    }
}
