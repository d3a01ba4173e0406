import MapModel
import Raster

/// Renders a loaded map into views. One renderer per worker thread: it owns its text engine
/// (Pango is not thread-safe) and its label placement caches. The map itself is shared.
public final class MapRenderer {
    public let map: LoadedMap
    private let fonts: FontConfiguration
    /// Also lays out page text (sheets), in the map's fonts.
    let text: TextEngine
    /// Label placements by resolution; a tile job renders many views at each zoom.
    private var labelSpaces: [LabelSpace] = []

    public init(map: LoadedMap) throws {
        self.map = map
        fonts = try FontConfiguration(fonts: map.document.fonts, systemFonts: map.document.systemFonts)
        text = TextEngine(fonts: fonts)
    }

    /// Draws the whole map for `view` into a context whose user units are the view's pixels.
    /// `margin` (pixels) widens the feature query beyond the symbols' own reach, like a
    /// metatile buffer.
    func draw(view: View, into context: CairoContext, margin: Double = 0) {
        let document = map.document
        context.save()
        context.setColor(document.background)
        context.paint()
        context.restore()

        let painter = FeaturePainter(context: context, view: view)
        for (index, layer) in document.layers.enumerated() where layer.isVisible(atScale: view.scale) {
            guard layer.fill != nil || layer.line != nil || layer.marker != nil else { continue }
            let scale = SymbolScale(layer: layer, map: document, view: view)
            let reach = max(margin, FeaturePainter.symbolReach(layer, scale)) * view.resolution
            let store = map.stores[index]
            var features = store.query(view.extent.expanded(by: reach)).map { store.features[$0] }
            if let filter = layer.filter { features = features.filter { filter.matches($0.properties) } }
            painter.paint(layer: layer, features: features, scale: scale)
        }

        drawLabels(view: view, into: context)
    }

    private func drawLabels(view: View, into context: CairoContext) {
        let space = labelSpace(for: view)
        let rect = Rect(minX: view.originX, minY: view.originY,
                        maxX: view.originX + Double(view.width), maxY: view.originY + Double(view.height))
        for label in space.placedLabels(in: rect) {
            let layout = text.layout(label.text, font: label.font)
            layout.draw(in: context, x: label.textX - view.originX, y: label.textY - view.originY,
                        color: label.color, halo: label.halo)
        }
    }

    private func labelSpace(for view: View) -> LabelSpace {
        if let space = labelSpaces.first(where: { $0.serves(view) }) { return space }
        let space = LabelSpace(map: map, view: view, text: text)
        labelSpaces.append(space)
        if labelSpaces.count > 4 { labelSpaces.removeFirst() }
        return space
    }

    /// Renders `view` to an image. `margin` (pixels) widens the feature query, like a
    /// metatile buffer: features that far outside the view are drawn too.
    public func renderImage(view: View, margin: Double = 0) throws -> Image {
        let surface = try renderSurface(view: view, margin: margin)
        return try surface.withPixels { pixels in
            try Image(cairoARGB32: pixels, width: surface.width, height: surface.height, stride: surface.stride)
        }
    }

    /// Renders `view` to an ARGB32 image surface.
    func renderSurface(view: View, margin: Double = 0) throws -> CairoSurface {
        let surface = try CairoSurface.image(width: view.width, height: view.height)
        let context = CairoContext(surface)
        draw(view: view, into: context, margin: margin)
        try context.checkStatus()
        return surface
    }
}
