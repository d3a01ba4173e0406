import Geodesy
import MapModel

/// Draws one layer's features: polygon fills, then lines and outlines, then markers, so an
/// outline is never covered by a neighbour's fill.
struct FeaturePainter {
    let context: CairoContext
    let view: View
    /// The part of the view being drawn, in global pixels (the whole view, or one tile).
    let region: Rect
    private var paths: PathBuilder

    init(context: CairoContext, view: View, region: Rect) {
        self.context = context
        self.view = view
        self.region = region
        self.paths = PathBuilder(view: view, region: region, margin: 0)
    }

    /// `reach`: how far the layer's symbols reach beyond their geometry, in pixels; geometry
    /// further out than that (plus a little for anti-aliasing) cannot show and is clipped.
    mutating func paint(layer: Layer, features: [Feature], scale: SymbolScale, reach: Double) {
        paths = PathBuilder(view: view, region: region, margin: reach + 4)
        if let fill = layer.fill {
            context.setEvenOddFill()
            context.setColor(fill.color.withOpacity(fill.opacity))
            for feature in features {
                // One path per feature: all its polygons and holes filled together.
                context.newPath()
                for geometry in feature.geometries where geometry.kind == .polygon {
                    paths.addRings(geometry, to: context)
                }
                context.fill()
            }
            if let outline = fill.outline { strokeOutlines(features, outline, scale) }
        }
        if let line = layer.line {
            strokeLines(features, line, scale)
            // A line symbol on polygons strokes their rings (as Mapnik's LineSymbolizer does).
            strokeOutlines(features, line, scale)
        }
        if let marker = layer.marker { paintMarkers(features, marker, scale) }
    }

    private func apply(_ line: LineSymbol, _ scale: SymbolScale) -> Bool {
        let width = scale.pixels(line.width)
        guard width > 0, line.opacity > 0, line.color.alpha > 0 else { return false }
        context.setColor(line.color.withOpacity(line.opacity))
        context.setLineWidth(width)
        context.setLineCap(line.cap)
        context.setLineJoin(line.join)
        return true
    }

    private func setDash(_ line: LineSymbol, _ scale: SymbolScale, offset: Double) {
        context.setDash(line.dash.map { scale.pixels($0) }, offset: offset)
    }

    private func strokeLines(_ features: [Feature], _ line: LineSymbol, _ scale: SymbolScale) {
        guard apply(line, scale) else { return }
        for feature in features {
            for geometry in feature.geometries where geometry.kind == .line {
                for piece in paths.linePieces(geometry) {
                    stroke(piece.points, closed: false, dashOffset: piece.startDistance, line, scale)
                }
            }
        }
        context.setDash([], offset: 0)
    }

    private func strokeOutlines(_ features: [Feature], _ line: LineSymbol, _ scale: SymbolScale) {
        guard apply(line, scale) else { return }
        for feature in features {
            for geometry in feature.geometries where geometry.kind == .polygon {
                for piece in paths.ringPieces(geometry) {
                    stroke(piece.points, closed: piece.closed, dashOffset: piece.startDistance, line, scale)
                }
            }
        }
        context.setDash([], offset: 0)
    }

    private func stroke(
        _ points: [PlanePoint], closed: Bool, dashOffset: Double, _ line: LineSymbol, _ scale: SymbolScale
    ) {
        if !line.dash.isEmpty { setDash(line, scale, offset: dashOffset) }
        context.newPath()
        context.moveTo(points[0].x, points[0].y)
        for p in points.dropFirst() { context.lineTo(p.x, p.y) }
        if closed { context.closePath() }
        context.stroke()
    }

    private func paintMarkers(_ features: [Feature], _ marker: MarkerSymbol, _ scale: SymbolScale) {
        let size = scale.pixels(marker.size)
        guard size > 0 else { return }
        let outlineWidth = marker.outline.map { scale.pixels($0.width) } ?? 0
        context.setEvenOddFill()
        for feature in features {
            for geometry in feature.geometries where geometry.kind == .point {
                for v in 0..<geometry.vertexCount {
                    let p = view.pixel(PlanePoint(x: geometry.x(v), y: geometry.y(v)))
                    guard p.x.isFinite, p.y.isFinite else { continue }  // outside the view's plane
                    context.newPath()
                    MarkerPath.add(marker.shape, x: p.x, y: p.y, size: size, to: context)
                    context.setColor(marker.fill)
                    if let outline = marker.outline, outlineWidth > 0 {
                        context.fillPreserve()
                        context.setColor(outline.color.withOpacity(outline.opacity))
                        context.setLineWidth(outlineWidth)
                        context.setLineJoin(outline.join)
                        context.stroke()
                    } else {
                        context.fill()
                    }
                }
            }
        }
    }

    /// How far a layer's symbols reach beyond their geometry, in pixels: features this close
    /// outside the view still touch it and must be drawn.
    static func symbolReach(_ layer: Layer, _ scale: SymbolScale) -> Double {
        var reach = 0.0
        if let marker = layer.marker {
            reach = max(reach, scale.pixels(marker.size) * 0.75 + scale.pixels(marker.outline?.width ?? 0))
        }
        if let line = layer.line { reach = max(reach, scale.pixels(line.width) * 5) }
        if let outline = layer.fill?.outline { reach = max(reach, scale.pixels(outline.width) * 5) }
        return reach + 1
    }
}
