import Foundation
import MapModel
import Raster

/// The images a map draws (marker icons, fill patterns), read when the renderer is made so
/// that a broken file stops the render before anything is written, and drawn at the sizes
/// asked for, each size made once. One per renderer (per worker thread).
final class ImageLibrary {
    private var images: [String: LoadedImage] = [:]
    private var surfaces: [SurfaceKey: CairoSurface] = [:]
    /// Shape markers as small images, made once per style and sub-pixel phase.
    let markerStamps = MarkerStamps()

    /// Icons and patterns larger than this are refused: they are symbols, not maps.
    static let maxPixels = 4096 * 4096
    /// Past this many sizes kept, the cache starts afresh: memory stays bounded.
    static let cacheLimit = 512

    private struct SurfaceKey: Hashable {
        let path: String
        let width: Int
        let height: Int
    }

    /// A read image and its own size in points (its pixels read as CSS pixels, 1/96 inch).
    final class LoadedImage {
        enum Content {
            case raster(CairoSurface)
            case vector(SVGDocument)
        }
        let content: Content
        let widthPoints: Double
        let heightPoints: Double

        init(content: Content, width: Double, height: Double) {
            self.content = content
            widthPoints = width * 0.75
            heightPoints = height * 0.75
        }
    }

    init(document: MapDocument) throws {
        for layer in document.layers {
            for rule in layer.rules {
                for reference in [rule.marker?.icon, rule.fill?.pattern?.image].compactMap({ $0 }) {
                    guard images[reference.path] == nil else { continue }
                    do {
                        images[reference.path] = try ImageLibrary.read(reference)
                    } catch {
                        guard case .unreadable(let reason) = error else { throw error }
                        throw DocumentError(
                            file: document.path, place: reference.place, message: "\(reference.path): \(reason)")
                    }
                }
            }
        }
    }

    private static func read(_ reference: ImageReference) throws(ImageError) -> LoadedImage {
        switch reference.format {
        case .svg:
            let svg = try SVGDocument(path: reference.path)
            return LoadedImage(content: .vector(svg), width: svg.width, height: svg.height)
        case .png:
            let image: Image
            do {
                image = try PNG.decode(contentsOf: reference.path, maxPixels: maxPixels)
            } catch {
                throw .unreadable("\(error)")
            }
            guard let surface = try? CairoSurface.image(from: image) else {
                throw .unreadable("cannot make an image of \(image.width)x\(image.height) pixels")
            }
            return LoadedImage(
                content: .raster(surface), width: Double(image.width), height: Double(image.height))
        }
    }

    /// The image read for `reference` (every reference of the document was read at init).
    func image(_ reference: ImageReference) -> LoadedImage { images[reference.path]! }

    /// The image drawn `width` x `height` pixels (whole pixels, at least 1).
    func surface(_ reference: ImageReference, width: Int, height: Int) -> CairoSurface? {
        let key = SurfaceKey(path: reference.path, width: max(1, width), height: max(1, height))
        if let known = surfaces[key] { return known }
        if surfaces.count >= ImageLibrary.cacheLimit { surfaces.removeAll(keepingCapacity: true) }
        guard let surface = try? CairoSurface.image(width: key.width, height: key.height) else { return nil }
        let context = CairoContext(surface)
        switch image(reference).content {
        case .vector(let svg):
            do {
                try svg.draw(into: context, width: Double(key.width), height: Double(key.height))
            } catch {
                return nil
            }
        case .raster(let source):
            context.scale(Double(key.width) / Double(source.width), Double(key.height) / Double(source.height))
            context.setSource(source, x: 0, y: 0)
            context.setGoodFilter()
            context.paint()
        }
        surfaces[key] = surface
        return surface
    }
}
