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

    func setColor(_ color: Color) {
        cairo_set_source_rgba(pointer, color.red, color.green, color.blue, color.alpha)
    }

    func paint() { cairo_paint(pointer) }

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

    func fill() { cairo_fill(pointer) }
    func fillPreserve() { cairo_fill_preserve(pointer) }
    func stroke() { cairo_stroke(pointer) }
    func strokePreserve() { cairo_stroke_preserve(pointer) }
    func clip() { cairo_clip(pointer) }

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

    /// Whether anything went wrong in the context (an invalid matrix, out of memory).
    func checkStatus() throws {
        let status = cairo_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(String(cString: cairo_status_to_string(status)))
        }
    }
}
