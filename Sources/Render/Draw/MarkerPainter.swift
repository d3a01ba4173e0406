import Foundation
import Geodesy
import MapModel

/// One marker as drawn: its style evaluated for a feature, sizes in pixels.
struct MarkerDrawing {
    var shape: MarkerShape
    var icon: ImageReference?
    /// Width in pixels.
    var width: Double
    /// Height in pixels (the width for shapes; an icon's own proportions).
    var height: Double
    /// Radians, clockwise.
    var rotation: Double
    var fill: Color
    var opacity: Double
    var outline: (color: Color, width: Double, join: LineJoin)?

    /// Half the sides of the box the marker covers once turned, outline included.
    var halfExtent: (x: Double, y: Double) {
        let c = abs(cos(rotation))
        let s = abs(sin(rotation))
        let grow = (outline?.width ?? 0) / 2
        return (
            (c * width + s * height) / 2 + grow, (s * width + c * height) / 2 + grow
        )
    }
}

extension MarkerStyle {
    /// The marker for one feature at one zoom; nil when it draws nothing.
    func drawing(_ context: EvaluationContext, _ scale: SymbolScale, _ images: ImageLibrary) -> MarkerDrawing? {
        let opacity = min(max(self.opacity.value(context), 0), 1)
        var width: Double
        var height: Double
        if let icon {
            let image = images.image(icon)
            width = scale.pixels(size?.value(context) ?? image.widthPoints)
            height = width * image.heightPoints / image.widthPoints
        } else {
            width = scale.pixels(size?.value(context) ?? MarkerStyle.defaultShapeSize)
            height = width
        }
        guard width > 0, height > 0, opacity > 0 else { return nil }
        let outline = self.outline.flatMap { line -> (color: Color, width: Double, join: LineJoin)? in
            let w = scale.pixels(line.width.value(context))
            let color = line.color.value(context).withOpacity(min(max(line.opacity.value(context), 0), 1))
            return w > 0 && color.alpha > 0 ? (color, w, line.join) : nil
        }
        return MarkerDrawing(
            shape: shape, icon: icon, width: width, height: height,
            rotation: rotation.value(context) * .pi / 180, fill: fill.value(context), opacity: opacity,
            outline: outline)
    }
}

extension MarkerStyle {
    /// Whether `drawing` can differ from feature to feature.
    var readsAttributes: Bool {
        [size?.readsAttributes, fill.readsAttributes, opacity.readsAttributes, rotation.readsAttributes]
            .contains(true)
            || outline.map { $0.width.readsAttributes || $0.color.readsAttributes || $0.opacity.readsAttributes }
                == true
    }
}

/// A marker style's drawings for the features of one layer at one zoom: evaluated once where
/// the style reads no attribute (most styles), not once per feature.
struct MarkerDrawings {
    let marker: MarkerStyle
    let scale: SymbolScale
    let images: ImageLibrary
    /// The drawing of every feature, when the style reads no attribute (nil inside: it draws
    /// nothing).
    private let constant: MarkerDrawing??

    init(_ marker: MarkerStyle, _ scale: SymbolScale, _ images: ImageLibrary) {
        self.marker = marker
        self.scale = scale
        self.images = images
        constant =
            marker.readsAttributes ? nil : .some(marker.drawing(EvaluationContext(zoom: scale.zoom), scale, images))
    }

    /// The marker for a feature with these attributes; nil when it draws nothing.
    func drawing(_ properties: @autoclosure () -> Properties) -> MarkerDrawing? {
        if let constant { return constant }
        return marker.drawing(EvaluationContext(zoom: scale.zoom, properties: properties()), scale, images)
    }
}

/// Draws markers: a filled shape with an optional outline, or an icon, centred on a point.
enum MarkerPainter {
    /// Draws `marker` centred on (x, y) of the context's user space (the view's pixels).
    static func draw(_ marker: MarkerDrawing, x: Double, y: Double, into context: CairoContext, images: ImageLibrary) {
        if let icon = marker.icon {
            guard
                let surface = images.surface(
                    icon, width: Int(marker.width.rounded(.up)), height: Int(marker.height.rounded(.up)))
            else { return }
            context.save()
            context.translate(x, y)
            if marker.rotation != 0 { context.rotate(marker.rotation) }
            context.scale(marker.width / Double(surface.width), marker.height / Double(surface.height))
            context.setSource(surface, x: -Double(surface.width) / 2, y: -Double(surface.height) / 2)
            context.setGoodFilter()
            context.paint(alpha: marker.opacity)
            context.restore()
            return
        }
        if images.markerStamps.draw(marker, x: x, y: y, into: context) { return }
        drawShape(marker, x: x, y: y, into: context)
    }

    /// Fills and outlines a shape marker's path centred on (x, y) of user space.
    static func drawShape(_ marker: MarkerDrawing, x: Double, y: Double, into context: CairoContext) {
        context.newPath()
        if marker.rotation != 0 {
            // The shape is laid out turned, then the transform is dropped before stroking so
            // the outline keeps its width.
            context.save()
            context.translate(x, y)
            context.rotate(marker.rotation)
            MarkerPath.add(marker.shape, x: 0, y: 0, size: marker.width, to: context)
            context.restore()
        } else {
            MarkerPath.add(marker.shape, x: x, y: y, size: marker.width, to: context)
        }
        context.setColor(marker.fill.withOpacity(marker.opacity))
        if let outline = marker.outline {
            context.fillPreserve()
            context.setColor(outline.color.withOpacity(marker.opacity))
            context.setLineWidth(outline.width)
            context.setLineJoin(outline.join)
            context.stroke()
        } else {
            context.fill()
        }
    }
}
