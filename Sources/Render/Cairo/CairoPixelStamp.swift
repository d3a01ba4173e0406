import CCairo

/// An image surface kept with its own pattern, composited at whole device pixels: the
/// thin Cairo side of drawing one small image many times (markers, `MarkerStamps`).
final class CairoPixelStamp {
    let surface: CairoSurface
    let width: Int
    let height: Int
    private let pattern: OpaquePointer

    init(_ surface: CairoSurface, width: Int, height: Int) {
        self.surface = surface
        self.width = width
        self.height = height
        pattern = cairo_pattern_create_for_surface(surface.pointer)
        // Placed at whole pixels, nothing is resampled: the nearest pixel is the pixel.
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
    }

    deinit { cairo_pattern_destroy(pattern) }

    /// Composites the image over `context` with its top-left corner at (x, y) of user space,
    /// which must be whole device pixels (see `CairoContext.pixelOffset`).
    func composite(into context: CairoContext, x: Double, y: Double) {
        var matrix = cairo_matrix_t()
        cairo_matrix_init_translate(&matrix, -x, -y)
        cairo_pattern_set_matrix(pattern, &matrix)
        cairo_set_source(context.pointer, pattern)
        cairo_new_path(context.pointer)
        cairo_rectangle(context.pointer, x, y, Double(width), Double(height))
        context.marks += 1
        cairo_fill(context.pointer)
    }
}

extension CairoContext {
    /// Where user space's origin is in device pixels, when user space is the device's pixels
    /// moved by whole pixels on an image drawn over with the normal operator; nil otherwise
    /// (a vector file, a scaled or turned space, another compositing): only then is an image
    /// composited at whole pixels the same as the shapes it was drawn from.
    var pixelOffset: (x: Double, y: Double)? {
        let target = cairo_get_group_target(pointer)
        guard cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
            cairo_get_operator(pointer) == CAIRO_OPERATOR_OVER
        else { return nil }
        var ux = 1.0
        var uy = 0.0
        cairo_user_to_device_distance(pointer, &ux, &uy)
        var vx = 0.0
        var vy = 1.0
        cairo_user_to_device_distance(pointer, &vx, &vy)
        guard ux == 1, uy == 0, vx == 0, vy == 1 else { return nil }
        var ox = 0.0
        var oy = 0.0
        cairo_user_to_device(pointer, &ox, &oy)
        guard ox == ox.rounded(), oy == oy.rounded() else { return nil }
        return (ox, oy)
    }
}
