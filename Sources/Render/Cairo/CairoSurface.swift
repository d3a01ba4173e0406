import CCairo
import Raster

/// A Cairo surface: an in-memory ARGB32 image, or a PDF or SVG file being written.
/// Owns the C object and destroys it in deinit.
final class CairoSurface {
    let pointer: OpaquePointer
    /// What owns the pixels of a surface made over memory of its own (`image(in:)`): kept
    /// alive as long as the surface.
    private let pixelOwner: AnyObject?

    private init(_ pointer: OpaquePointer, what: String, pixelOwner: AnyObject? = nil) throws {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            let message = String(cString: cairo_status_to_string(status))
            cairo_surface_destroy(pointer)
            throw RenderError.cairo("\(what): \(message)")
        }
        self.pointer = pointer
        self.pixelOwner = pixelOwner
    }

    /// A transparent ARGB32 image (premultiplied alpha, native-endian 32-bit pixels).
    static func image(width: Int, height: Int) throws -> CairoSurface {
        try CairoSurface(
            cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            what: "cannot create a \(width)x\(height) image")
    }

    /// An ARGB32 image over `pixels`' memory, its rows Cairo's stride for the width apart; its
    /// pixels are whatever the memory held. Nil when `pixels` is too small for it.
    static func image(width: Int, height: Int, in pixels: PixelMemory) throws -> CairoSurface? {
        let stride = imageStride(width: width)
        guard width > 0, height > 0, stride > 0, stride * height <= pixels.byteCount else { return nil }
        return try CairoSurface(
            cairo_image_surface_create_for_data(
                pixels.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                Int32(stride)),
            what: "cannot create a \(width)x\(height) image", pixelOwner: pixels)
    }

    /// The bytes of an ARGB32 image's pixels, rows Cairo's stride apart (at least 1).
    static func imageByteCount(width: Int, height: Int) -> Int {
        max(imageStride(width: width) * height, 1)
    }

    /// Cairo's bytes from one row of an ARGB32 image to the next; -1 for a width it cannot take.
    private static func imageStride(width: Int) -> Int {
        Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: width)))
    }

    /// An image's pixels as an ARGB32 surface (colour premultiplied by alpha, as Cairo keeps it).
    static func image(from image: Image) throws -> CairoSurface {
        let surface = try CairoSurface.image(width: image.width, height: image.height)
        cairo_surface_flush(surface.pointer)
        let data = cairo_image_surface_get_data(surface.pointer)!
        let stride = surface.stride
        image.withUnsafeBytes { (pixels: UnsafeRawBufferPointer) in
            for y in 0..<image.height {
                let row = (data + y * stride).withMemoryRebound(to: UInt32.self, capacity: image.width) { $0 }
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    let a = UInt32(pixels[i + 3])
                    func premultiplied(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                    row[x] =
                        a << 24 | premultiplied(pixels[i]) << 16 | premultiplied(pixels[i + 1]) << 8
                        | premultiplied(pixels[i + 2])
                }
            }
        }
        cairo_surface_mark_dirty(surface.pointer)
        return surface
    }

    /// A one-page PDF of the given size in points, written to `path` as drawing proceeds.
    static func pdf(path: String, widthPoints: Double, heightPoints: Double, title: String? = nil) throws
        -> CairoSurface
    {
        let surface = try CairoSurface(
            cairo_pdf_surface_create(path, widthPoints, heightPoints),
            what: "cannot create \(path)")
        // Reproducible bytes: no creation date in the document.
        cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_CREATE_DATE, "")
        cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_CREATOR, "Meridian")
        if let title { cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_TITLE, title) }
        return surface
    }

    /// An SVG file of the given size in points.
    static func svg(path: String, widthPoints: Double, heightPoints: Double) throws -> CairoSurface {
        try CairoSurface(cairo_svg_surface_create(path, widthPoints, heightPoints), what: "cannot create \(path)")
    }

    var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    var height: Int { Int(cairo_image_surface_get_height(pointer)) }
    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// The image pixels (ARGB32 layout); valid while the surface lives.
    func withPixels<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        cairo_surface_flush(pointer)
        let data = cairo_image_surface_get_data(pointer)!
        return try body(UnsafeRawBufferPointer(start: data, count: stride * height))
    }

    /// Completes a vector file; reports a write failure (a full disk, a vanished folder).
    func finish() throws {
        cairo_surface_finish(pointer)
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(String(cString: cairo_status_to_string(status)))
        }
    }

    deinit { cairo_surface_destroy(pointer) }
}
