import Foundation
import MapModel

/// How big a layer's symbols are in a view: points to pixels, times the reference-scale
/// factor `referenceScale / viewScale` for layers that scale their symbols, then held within
/// the layer's `minSize`...`maxSize` (points) and under `maxPixels`.
struct SymbolScale {
    /// Pixels per point.
    let pixelsPerPoint: Double
    /// The reference-scale factor (1 for layers that do not scale).
    let factor: Double
    let minSize: Double
    let maxSize: Double
    /// The view's zoom, for expressions.
    let zoom: Double

    /// No size is drawn larger than this many pixels, whatever the dpi and the sizes: fonts
    /// fail beyond about 65,000 pixels, and Cairo slows to a crawl on shapes far larger than
    /// any image it can make (32,767 pixels a side).
    static let maxPixels = 16_384.0

    init(layer: Layer, map: MapDocument, view: View) {
        var factor = 1.0
        if layer.scalesSymbols, let reference = map.referenceScale {
            factor = reference / view.scale
        }
        self.pixelsPerPoint = view.pixelsPerPoint
        self.factor = factor
        self.minSize = layer.minSize
        self.maxSize = layer.maxSize
        self.zoom = ZoomScale.zoom(scale: view.scale)
    }

    /// A size in points as pixels. Zero stays zero; a negative value (an offset) keeps its
    /// sign and is bounded by its magnitude.
    func pixels(_ points: Double) -> Double {
        guard points != 0, points.isFinite else { return 0 }
        let scaled = Swift.min(Swift.max(Swift.abs(points) * factor, minSize), maxSize)
        return copysign(Swift.min(scaled * pixelsPerPoint, SymbolScale.maxPixels), points)
    }
}
