import CRSVG
import Foundation

/// An SVG file read by librsvg, drawn at any size. Owns the librsvg handle.
final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// The document's own size in CSS pixels (1/96 inch): its width and height, or its
    /// viewBox when it gives no absolute size.
    let width: Double
    let height: Double

    init(path: String) throws(ImageError) {
        var error: UnsafeMutablePointer<GError>?
        guard let handle = rsvg_handle_new_from_file(path, &error) else {
            throw .unreadable(SVGDocument.message(error) ?? "not an SVG file librsvg can read")
        }
        self.handle = handle
        rsvg_handle_set_dpi(handle, 96)
        var w = 0.0
        var h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) == 0 {
            var hasWidth: gboolean = 0
            var hasHeight: gboolean = 0
            var hasViewBox: gboolean = 0
            var lengthW = RsvgLength()
            var lengthH = RsvgLength()
            var viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(
                handle, &hasWidth, &lengthW, &hasHeight, &lengthH, &hasViewBox, &viewBox)
            if hasViewBox != 0 {
                w = viewBox.width
                h = viewBox.height
            }
        }
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            g_object_unref(UnsafeMutableRawPointer(handle))
            throw .unreadable("the SVG gives no size (set width and height, or a viewBox)")
        }
        width = w
        height = h
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the document filling `width` x `height` pixels at the context's origin.
    func draw(into context: CairoContext, width: Double, height: Double) throws(ImageError) {
        var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
        var error: UnsafeMutablePointer<GError>?
        context.marks += 1
        guard rsvg_handle_render_document(handle, context.pointer, &viewport, &error) != 0 else {
            throw .unreadable(SVGDocument.message(error) ?? "librsvg could not draw it")
        }
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }
}

/// Why an image cannot be used.
enum ImageError: Error {
    case unreadable(String)
}
