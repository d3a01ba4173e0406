import CCairo
import MapModel

/// A Cairo drawing context over a surface; the thin layer the painters draw through.
final class CairoContext {
    let pointer: OpaquePointer
    let surface: CairoSurface

    init(_ surface: CairoSurface) {
        self.surface = surface
        pointer = cairo_create(surface.pointer)
    }

    deinit { cairo_destroy(pointer) }

    func save() { cairo_save(pointer) }
    func restore() { cairo_restore(pointer) }
    func scale(_ sx: Double, _ sy: Double) { cairo_scale(pointer, sx, sy) }
    func translate(_ tx: Double, _ ty: Double) { cairo_translate(pointer, tx, ty) }
    /// Turns the user space by `radians`, clockwise on the image (y points down).
    func rotate(_ radians: Double) { cairo_rotate(pointer, radians) }

    func setColor(_ color: Color) {
        cairo_set_source_rgba(pointer, color.red, color.green, color.blue, color.alpha)
    }

    /// Drawing operations that may have changed pixels (a paint, or a fill or stroke of a path
    /// that is not empty), counted so that a caller can tell a region nothing was drawn in.
    var marks = 0

    func paint() {
        marks += 1
        cairo_paint(pointer)
    }
    /// Every pixel (within the clip) made transparent black.
    func clear() {
        save()
        cairo_set_operator(pointer, CAIRO_OPERATOR_CLEAR)
        paint()
        restore()
    }
    func paint(alpha: Double) {
        marks += 1
        cairo_paint_with_alpha(pointer, alpha)
    }

    /// Draws to an intermediate group until `popGroupToSource`, which makes it the source.
    func pushGroup() { cairo_push_group(pointer) }
    func popGroupToSource() { cairo_pop_group_to_source(pointer) }

    func setCompositing(_ compositing: Compositing) { cairo_set_operator(pointer, compositing.cairoOperator) }

    /// An image surface as the source, its top-left corner at (x, y) of user space.
    func setSource(_ surface: CairoSurface, x: Double, y: Double) {
        cairo_set_source_surface(pointer, surface.pointer, x, y)
    }

    /// Smooth scaling of image sources (icons drawn at another size than their pixels).
    func setGoodFilter() { cairo_pattern_set_filter(cairo_get_source(pointer), CAIRO_FILTER_GOOD) }

    /// A surface repeated over the plane as the source, one repetition's top-left corner at
    /// (x, y) of user space.
    func setRepeatingSource(_ surface: CairoSurface, x: Double, y: Double) {
        let pattern = cairo_pattern_create_for_surface(surface.pointer)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        var matrix = cairo_matrix_t()
        cairo_matrix_init_translate(&matrix, -x, -y)
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_set_source(pointer, pattern)
        cairo_pattern_destroy(pattern)
    }

    func newPath() { cairo_new_path(pointer) }
    func moveTo(_ x: Double, _ y: Double) { cairo_move_to(pointer, x, y) }
    func lineTo(_ x: Double, _ y: Double) { cairo_line_to(pointer, x, y) }
    func closePath() { cairo_close_path(pointer) }
    func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { cairo_rectangle(pointer, x, y, w, h) }
    func circle(_ x: Double, _ y: Double, radius: Double) {
        cairo_new_sub_path(pointer)
        cairo_arc(pointer, x, y, radius, 0, 2 * .pi)
        cairo_close_path(pointer)
    }

    /// Even-odd filling makes holes of inner rings whatever their winding in the file.
    func setEvenOddFill() { cairo_set_fill_rule(pointer, CAIRO_FILL_RULE_EVEN_ODD) }

    func fill() {
        noteMark()
        cairo_fill(pointer)
    }
    func fillPreserve() {
        noteMark()
        cairo_fill_preserve(pointer)
    }
    func stroke() {
        noteMark()
        cairo_stroke(pointer)
    }
    func strokePreserve() {
        noteMark()
        cairo_stroke_preserve(pointer)
    }

    /// Counts a fill or stroke of the current path, unless the path is empty (a feature
    /// clipped away entirely adds nothing to it).
    @inline(__always) private func noteMark() {
        if cairo_has_current_point(pointer) != 0 { marks += 1 }
    }
    func clip() { cairo_clip(pointer) }
    func setNonZeroFill() { cairo_set_fill_rule(pointer, CAIRO_FILL_RULE_WINDING) }

    func setLineWidth(_ width: Double) { cairo_set_line_width(pointer, width) }

    func setDash(_ lengths: [Double], offset: Double) {
        lengths.withUnsafeBufferPointer { cairo_set_dash(pointer, $0.baseAddress, Int32($0.count), offset) }
    }

    func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(pointer, CAIRO_LINE_CAP_SQUARE)
        }
    }

    func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(pointer, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(pointer, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    func setMiterLimit(_ limit: Double) { cairo_set_miter_limit(pointer, limit) }

    /// Whether anything went wrong in the context (an invalid matrix, out of memory).
    func checkStatus() throws {
        let status = cairo_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(String(cString: cairo_status_to_string(status)))
        }
    }
}

extension Compositing {
    var cairoOperator: cairo_operator_t {
        switch self {
        case .normal: return CAIRO_OPERATOR_OVER
        case .multiply: return CAIRO_OPERATOR_MULTIPLY
        case .screen: return CAIRO_OPERATOR_SCREEN
        case .overlay: return CAIRO_OPERATOR_OVERLAY
        case .darken: return CAIRO_OPERATOR_DARKEN
        case .lighten: return CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: return CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: return CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: return CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: return CAIRO_OPERATOR_SOFT_LIGHT
        case .difference: return CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: return CAIRO_OPERATOR_EXCLUSION
        case .hue: return CAIRO_OPERATOR_HSL_HUE
        case .saturation: return CAIRO_OPERATOR_HSL_SATURATION
        case .color: return CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: return CAIRO_OPERATOR_HSL_LUMINOSITY
        case .add: return CAIRO_OPERATOR_ADD
        }
    }
}
