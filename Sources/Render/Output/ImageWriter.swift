import Foundation
import MapModel
import Raster

/// Writes a render to a file whose extension picks the format: PNG (raster at the view's
/// pixels), PDF or SVG (vector: the page is the view's size in points at its dpi, text stays
/// text). Files appear whole or not at all: written under a temporary name, then renamed.
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
        let temporary = try temporaryPath(for: path)
        if format == .png {
            // The dpi goes into the file (pHYs), so a printed PNG comes out at its size.
            let image = try renderer.renderImage(view: view)
            let bytes = try PNG.encode(image, options: PNGEncodingOptions(dotsPerInch: view.dpi))
            do {
                try FileIO.writeAtomically(bytes, toPath: path)
            } catch {
                throw RenderError.output(path: path, message: error.reason)
            }
            return
        }
        do {
            try writeVector(renderer, view: view, format: format, to: temporary)
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if let renderError = error as? RenderError { throw renderError }
            throw RenderError.output(path: path, message: "cannot write the file (\(error.localizedDescription))")
        }
    }

    /// PDF or SVG: Cairo writes the file as it draws; user units are the view's pixels.
    private static func writeVector(_ renderer: MapRenderer, view: View, format: Format, to path: String) throws {
        let points = 72 / view.dpi
        let width = Double(view.width) * points
        let height = Double(view.height) * points
        let surface =
            format == .pdf
            ? try CairoSurface.pdf(path: path, widthPoints: width, heightPoints: height)
            : try CairoSurface.svg(path: path, widthPoints: width, heightPoints: height)
        let context = CairoContext(surface)
        context.scale(points, points)
        try renderer.draw(view: view, into: context)
        try context.checkStatus()
        try surface.finish()
    }

    /// A temporary file beside the output (same filesystem, so the rename is atomic).
    /// Fails early, with a clear message, when the folder is missing or not writable.
    static func temporaryPath(for path: String) throws -> String {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RenderError.output(path: path, message: "the folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw RenderError.output(path: path, message: "the folder \(folder) is not writable")
        }
        let name = (path as NSString).lastPathComponent
        return (folder as NSString).appendingPathComponent(".\(name).\(getpid()).tmp")
    }
}
