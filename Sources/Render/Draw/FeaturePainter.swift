import Foundation
import Geodesy
import MapModel

/// Draws one layer's features, rule by rule (see `Rule`): each rule's fills, then their
/// outlines, then its strokes one after the other over all its features, then its markers.
/// A layer with an opacity or a compositing is drawn to a group, then put onto the map.
struct FeaturePainter {
    let context: CairoContext
    let view: View
    /// The part of the view being drawn, in global pixels (the whole view, or one tile).
    let region: Rect
    let images: ImageLibrary
    private var paths: PathBuilder

    /// A feature, the rules (indices into the layer's rules) that draw it, and its position
    /// in the layer's content (`PixelPaths.Key`).
    typealias RuledFeature = (feature: Feature, rules: [Int], slot: Int)
    /// A feature being drawn and its position in the layer's content.
    private typealias Drawn = (feature: Feature, slot: Int)

    init(context: CairoContext, view: View, region: Rect, images: ImageLibrary) {
        self.context = context
        self.view = view
        self.region = region
        self.images = images
        self.paths = PathBuilder(view: view, region: region, margin: 0)
    }

    /// `reach`: how far the layer's symbols reach beyond their geometry, in pixels; geometry
    /// further out than that (plus a little for anti-aliasing) cannot show and is clipped.
    /// `cache`: the layer's parts in pixels, kept by the caller for the tiles of one block.
    mutating func paint(
        layer: Layer, features: [RuledFeature], scale: SymbolScale, reach: Double, cache: PixelPaths? = nil
    ) {
        paths = PathBuilder(view: view, region: region, margin: reach + 4, cache: cache)
        if layer.drawsToGroup { context.pushGroup() }
        for (index, rule) in layer.rules.enumerated() where rule.drawsFeatures {
            let drawn = features.filter { $0.rules.contains(index) }.map { Drawn($0.feature, $0.slot) }
            if !drawn.isEmpty { paint(rule, drawn, scale) }
        }
        if layer.drawsToGroup {
            context.popGroupToSource()
            context.save()
            context.setCompositing(layer.compositing)
            context.paint(alpha: layer.opacity)
            context.restore()
        }
    }

    private func paint(_ rule: Rule, _ features: [Drawn], _ scale: SymbolScale) {
        if let fill = rule.fill {
            paintFills(features, fill, scale)
            if let outline = fill.outline { strokeOutlines(features, outline, scale) }
        }
        for line in rule.lines {
            strokeLines(features, line, scale)
            // A line symbol on polygons strokes their rings (as Mapnik's LineSymbolizer does).
            strokeOutlines(features, line, scale)
        }
        if let marker = rule.marker {
            switch marker.placement {
            case .point where !marker.takesPartInPlacement: paintMarkers(features.map(\.feature), marker, scale)
            case .line: paintLineMarkers(features, marker, scale)
            case .point: break  // placed and drawn with the labels
            }
        }
    }

    /// Whether painting a layer's features in consecutive batches, in order, draws exactly
    /// what one `paint(layer:)` call with all of them draws: so when `paint(_:_:_:)` makes at
    /// most one pass that draws anything over features of `kinds` drawn by `rules`, and the
    /// layer is not drawn to a group. Each pass draws one feature after another and nothing of
    /// one feature's drawing carries to the next, except a dash left set by a dashed stroke
    /// (so a dashed line is not batched). A pass that drew several features as one path
    /// would not batch either: this must follow `paint(_:_:_:)`.
    static func paintsInBatches(_ layer: Layer, rules: Set<Int>, kinds: Set<Geometry.Kind>) -> Bool {
        guard !layer.drawsToGroup else { return false }
        let lines = kinds.contains(.line)
        let polygons = kinds.contains(.polygon)
        var passes = 0
        for index in rules where layer.rules[index].drawsFeatures {
            let rule = layer.rules[index]
            if let fill = rule.fill, polygons { passes += fill.outline == nil ? 1 : 2 }
            for line in rule.lines {
                if !line.dash.isEmpty { return false }
                passes += (lines ? 1 : 0) + (polygons ? 1 : 0)
            }
            if let marker = rule.marker {
                switch marker.placement {
                case .point where !marker.takesPartInPlacement: passes += kinds.contains(.point) ? 1 : 0
                case .line: passes += lines || polygons ? 1 : 0
                case .point: break
                }
            }
        }
        return passes <= 1
    }

    private func evaluation(_ feature: Feature, _ scale: SymbolScale) -> EvaluationContext {
        EvaluationContext(zoom: scale.zoom, properties: feature.properties)
    }

    /// One path per feature: all its polygons and holes filled together.
    private func addPolygons(_ drawn: Drawn) -> Bool {
        context.newPath()
        var any = false
        for (g, geometry) in drawn.feature.geometries.enumerated() where geometry.kind == .polygon {
            paths.addRings(geometry, id: PixelPaths.Key(feature: drawn.slot, geometry: g), to: context)
            any = true
        }
        return any
    }

    private func paintFills(_ features: [Drawn], _ fill: FillStyle, _ scale: SymbolScale) {
        context.setEvenOddFill()
        let pattern = fill.pattern.flatMap { patternSurface($0, scale) }
        for drawn in features {
            let feature = drawn.feature
            guard addPolygons(drawn) else { continue }
            let values = evaluation(feature, scale)
            let opacity = min(max(fill.opacity.value(values), 0), 1)
            let color = fill.color.value(values).withOpacity(opacity)
            guard pattern != nil || fill.hatch != nil else {
                context.setColor(color)
                context.fill()
                continue
            }
            context.setColor(color)
            context.fillPreserve()
            context.save()
            context.clip()
            if let pattern {
                // The pattern's grid is fixed to global pixels; the remainder keeps the
                // offsets small (Cairo samples patterns in 16.16 fixed point).
                let w = Double(pattern.width)
                let h = Double(pattern.height)
                context.setRepeatingSource(
                    pattern, x: -view.originX.truncatingRemainder(dividingBy: w),
                    y: -view.originY.truncatingRemainder(dividingBy: h))
                context.paint(alpha: opacity)
            }
            if let hatch = fill.hatch { paintHatch(hatch, feature, values, opacity, scale) }
            context.restore()
        }
    }

    private func patternSurface(_ pattern: FillStyle.Pattern, _ scale: SymbolScale) -> CairoSurface? {
        let image = images.image(pattern.image)
        let width = scale.pixels(pattern.size ?? image.widthPoints)
        let height = width * image.heightPoints / image.widthPoints
        guard width >= 1, height >= 1 else { return nil }
        return images.surface(pattern.image, width: Int(width.rounded()), height: Int(height.rounded()))
    }

    private func paintHatch(
        _ hatch: FillStyle.Hatch, _ feature: Feature, _ values: EvaluationContext, _ opacity: Double,
        _ scale: SymbolScale
    ) {
        let width = scale.pixels(hatch.width)
        let spacing = scale.pixels(hatch.spacing)
        guard width > 0, spacing > width else { return }
        let box = MapRenderer.MapContent.pixelBounds(feature.bounds, view).intersection(
            region.expanded(by: paths.margin))
        context.newPath()
        for (a, b) in Hatching.segments(in: box, angle: hatch.angle * .pi / 180, spacing: spacing) {
            let p = view.transform.image(global: a)
            let q = view.transform.image(global: b)
            context.moveTo(p.x, p.y)
            context.lineTo(q.x, q.y)
        }
        context.setColor(hatch.color.value(values).withOpacity(opacity))
        context.setLineWidth(width)
        context.setLineCap(.butt)
        context.stroke()
    }

    private func strokeLines(_ features: [Drawn], _ line: LineStyle, _ scale: SymbolScale) {
        let strokes = LineStrokes(line, scale)
        // A shared stroke is set once: nothing below changes the context's source or width.
        var applied = false
        for (feature, slot) in features {
            guard feature.geometries.contains(where: { $0.kind == .line }), let stroke = strokes.drawing(feature)
            else { continue }
            if !strokes.isShared || !applied { apply(stroke) }
            applied = true
            for (g, geometry) in feature.geometries.enumerated() where geometry.kind == .line {
                let id = PixelPaths.Key(feature: slot, geometry: g)
                for piece in paths.linePieces(geometry, id: id, offset: stroke.offset) {
                    self.stroke(piece.points, closed: false, dashOffset: piece.startDistance, stroke)
                }
            }
        }
        context.setDash([], offset: 0)
    }

    /// Polygon rings; the stroke's offset moves them inward, and an inset stroke is kept
    /// inside its polygon (where the polygon is narrower than the inset, the moved ring
    /// would cross it).
    private func strokeOutlines(_ features: [Drawn], _ line: LineStyle, _ scale: SymbolScale) {
        let strokes = LineStrokes(line, scale)
        for (feature, slot) in features {
            guard feature.geometries.contains(where: { $0.kind == .polygon }), let stroke = strokes.drawing(feature)
            else { continue }
            if stroke.offset > 0 {
                context.save()
                context.setEvenOddFill()
                _ = addPolygons((feature, slot))
                context.clip()
            }
            apply(stroke)
            for (g, geometry) in feature.geometries.enumerated() where geometry.kind == .polygon {
                let id = PixelPaths.Key(feature: slot, geometry: g)
                for piece in paths.ringPieces(geometry, id: id, inset: stroke.offset) {
                    self.stroke(piece.points, closed: piece.closed, dashOffset: piece.startDistance, stroke)
                }
            }
            if stroke.offset > 0 { context.restore() }
        }
        context.setDash([], offset: 0)
    }

    private func apply(_ stroke: StrokeDrawing) {
        context.setColor(stroke.color)
        context.setLineWidth(stroke.width)
        context.setLineCap(stroke.cap)
        context.setLineJoin(stroke.join)
    }

    private func stroke(_ points: [PlanePoint], closed: Bool, dashOffset: Double, _ stroke: StrokeDrawing) {
        guard points.count >= 2 else { return }
        if !stroke.dash.isEmpty { context.setDash(stroke.dash, offset: dashOffset) }
        context.newPath()
        context.moveTo(points[0].x, points[0].y)
        for p in points.dropFirst() { context.lineTo(p.x, p.y) }
        if closed { context.closePath() }
        context.stroke()
    }

    private func paintMarkers(_ features: [Feature], _ marker: MarkerStyle, _ scale: SymbolScale) {
        context.setEvenOddFill()
        let drawings = MarkerDrawings(marker, scale, images)
        for feature in features {
            guard feature.geometries.contains(where: { $0.kind == .point }),
                let drawing = drawings.drawing(feature.properties)
            else { continue }
            for geometry in feature.geometries where geometry.kind == .point {
                for v in 0..<geometry.vertexCount {
                    let p = view.pixel(PlanePoint(x: geometry.x(v), y: geometry.y(v)))
                    guard p.x.isFinite, p.y.isFinite else { continue }  // outside the view's plane
                    MarkerPainter.draw(drawing, x: p.x, y: p.y, into: context, images: images)
                }
            }
        }
    }

    /// Markers every `spacing` along lines and polygon rings, turned with them.
    private func paintLineMarkers(_ features: [Drawn], _ marker: MarkerStyle, _ scale: SymbolScale) {
        context.setEvenOddFill()
        let spacing = scale.pixels(marker.spacing)
        guard spacing >= 1 else { return }
        let drawings = MarkerDrawings(marker, scale, images)
        for (feature, slot) in features {
            guard let drawing = drawings.drawing(feature.properties) else { continue }
            var pieces: [(points: [PlanePoint], startDistance: Double)] = []
            for (g, geometry) in feature.geometries.enumerated() {
                let id = PixelPaths.Key(feature: slot, geometry: g)
                switch geometry.kind {
                case .line: pieces += paths.linePieces(geometry, id: id)
                case .polygon:
                    pieces += paths.ringPieces(geometry, id: id).map {
                        ($0.points + ($0.closed ? [$0.points[0]] : []), $0.startDistance)
                    }
                case .point: break
                }
            }
            for piece in pieces {
                for position in LineMarkers.positions(
                    piece.points, startDistance: piece.startDistance, spacing: spacing)
                {
                    var turned = drawing
                    turned.rotation += position.angle
                    MarkerPainter.draw(turned, x: position.point.x, y: position.point.y, into: context, images: images)
                }
            }
        }
    }

    /// How far a layer's symbols reach beyond their geometry, in pixels: features this close
    /// outside the view still touch it and must be drawn.
    static func symbolReach(_ layer: Layer, _ scale: SymbolScale, _ images: ImageLibrary) -> Double {
        var reach = 0.0
        func largest(_ value: StyleValue<Double>?, _ fallback: Double) -> Double {
            guard let value else { return scale.pixels(fallback) }
            return scale.pixels(value.largestMagnitude(zoom: scale.zoom) ?? scale.maxSize)
        }
        for rule in layer.rules {
            if let marker = rule.marker {
                var size = largest(marker.size, marker.icon.map { images.image($0).widthPoints } ?? 6)
                if let icon = marker.icon {
                    let image = images.image(icon)
                    size *= max(1, image.heightPoints / image.widthPoints)
                }
                // A turned marker reaches to its corners.
                reach = max(reach, size * 0.75 + (marker.outline.map { largest($0.width, 1) } ?? 0))
            }
            for line in rule.lines { reach = max(reach, line.reach(scale)) }
            if let outline = rule.fill?.outline { reach = max(reach, outline.reach(scale)) }
        }
        return reach + 1
    }
}
