import Foundation
import MapModel
import Raster

/// Writes a render to a file whose extension picks the format: PNG (raster at the view's
/// pixels), PDF or SVG (vector: the page is the view's size in points at its dpi, text stays
/// text). Files appear whole or not at all, through Raster's `AtomicFile`, and an existing
/// file is replaced.
public enum ImageWriter {
    public enum Format: String, CaseIterable, Sendable {
        case png, pdf, svg
    }

    public static func format(forPath path: String) throws -> Format {
        let ext = (path as NSString).pathExtension.lowercased()
        guard let format = Format(rawValue: ext) else {
            throw RenderError.output(path: path, message: "unknown output format \".\(ext)\" (use .png, .pdf or .svg)")
        }
        return format
    }

    public static func write(_ renderer: MapRenderer, view: View, to path: String) throws {
        let format = try format(forPath: path)
        if format == .png {
            try writePNG(try renderer.renderImage(view: view), dpi: view.dpi, to: path)
            return
        }
        let points = 72 / view.dpi
        try writeVector(
            format, to: path, widthPoints: Double(view.width) * points, heightPoints: Double(view.height) * points
        ) { context in
            // User units are the view's pixels.
            context.scale(points, points)
            try renderer.draw(view: view, into: context)
        }
    }

    /// A PNG whose dpi goes into the file (pHYs), so a printed PNG comes out at its size.
    static func writePNG(_ image: Image, dpi: Double, to path: String) throws {
        try PNG.write(image, toPath: path, options: PNGEncodingOptions(dotsPerInch: dpi))
    }

    /// A one-page PDF or SVG of the given size in points, drawn by `draw`. Cairo writes the
    /// temporary file as it draws; it is renamed over `path` once the surface is finished.
    static func writeVector(
        _ format: Format, to path: String, widthPoints: Double, heightPoints: Double, title: String? = nil,
        draw: (CairoContext) throws -> Void
    ) throws {
        precondition(format != .png, "PNG is not a vector format")
        let file: AtomicFile
        do { file = try AtomicFile(path: path) } catch { throw RenderError.output(path: path, message: error.reason) }
        do {
            let surface =
                format == .pdf
                ? try CairoSurface.pdf(
                    path: file.temporaryPath, widthPoints: widthPoints, heightPoints: heightPoints, title: title)
                : try CairoSurface.svg(path: file.temporaryPath, widthPoints: widthPoints, heightPoints: heightPoints)
            let context = CairoContext(surface)
            try draw(context)
            try context.checkStatus()
            try surface.finish()
        } catch RenderError.cairo(let message) {
            throw RenderError.output(path: path, message: "cannot write the file (\(message))")
        }
        do { try file.commit() } catch { throw RenderError.output(path: path, message: error.reason) }
    }
}
