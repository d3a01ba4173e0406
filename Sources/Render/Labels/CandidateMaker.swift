import Foundation
import Geodesy
import MapModel

/// Makes the placement candidates of a feature at one resolution: its labels (text measured
/// and laid out, at a point with its alternative positions, or along its lines) and the
/// markers that take part in placement. Everything is computed from the whole feature in
/// global pixels and from the rendered area (never one tile's), so every view and tile of a
/// render at this resolution gets the same candidates.
struct CandidateMaker {
    let map: LoadedMap
    /// A view at the resolution, density and plane placed for.
    let view: View
    let text: TextEngine
    let images: ImageLibrary
    let scales: [SymbolScale]
    /// For each layer, the rules that draw at this scale (empty when the layer does not draw).
    let activeRules: [[Int]]
    /// In a single image where some rule's labels avoid its edges: the image, in global pixels.
    let edge: Rect?
    /// The whole rendered area in global pixels, whose visible part of a polygon is labelled
    /// (see `VisibleLabelPoint`); nil where nothing cuts the map (a whole-world pyramid).
    let area: Rect?
    /// For each layer and rule: its marker's drawings, where it takes part in placement.
    let markerDrawings: [[MarkerDrawings?]]

    init(map: LoadedMap, view: View, text: TextEngine, images: ImageLibrary, edge: Rect?) {
        self.map = map
        self.view = view
        self.text = text
        self.images = images
        self.edge = edge
        area = CandidateMaker.area(of: view)
        scales = map.document.layers.map { SymbolScale(layer: $0, map: map.document, view: view) }
        activeRules = map.document.layers.map { layer in
            layer.isVisible(atScale: view.scale) ? layer.rules(atScale: view.scale) : []
        }
        markerDrawings = zip(map.document.layers, scales).map { layer, scale in
            layer.rules.map { rule in
                rule.marker.flatMap { $0.takesPartInPlacement ? MarkerDrawings($0, scale, images) : nil }
            }
        }
    }

    /// The area rendered with `view`: a single image's own pixels, a pyramid's extent at its
    /// zoom (`View.renderedArea`) for a block of tiles.
    static func area(of view: View) -> Rect? {
        view.isTileBlock ? view.renderedArea : view.globalBounds
    }

    /// Whether a layer has anything to place at this resolution.
    func places(layer: Int) -> Bool {
        let rules = map.document.layers[layer].rules
        return activeRules[layer].contains { rules[$0].label != nil || rules[$0].marker?.takesPartInPlacement == true }
    }

    /// How far (pixels) a candidate's boxes can reach from its anchor (see
    /// `PlacementCandidate.anchor`).
    func reach(layer index: Int) -> Double {
        let layer = map.document.layers[index]
        let scale = scales[index]
        func largest(_ value: StyleValue<Double>) -> Double {
            scale.pixels(value.largestMagnitude(zoom: scale.zoom) ?? scale.maxSize)
        }
        var reach = 0.0
        for r in activeRules[index] {
            let rule = layer.rules[r]
            if let marker = rule.marker, marker.takesPartInPlacement {
                let size =
                    marker.size.map(largest) ?? scale.pixels(marker.icon.map { images.image($0).widthPoints } ?? 6)
                let aspect = marker.icon.map { images.image($0).heightPoints / images.image($0).widthPoints } ?? 1
                reach = max(reach, size * max(1, aspect) * 0.75 + (marker.outline.map { largest($0.width) } ?? 0))
            }
            guard let label = rule.label else { continue }
            let size = largest(label.size)
            let halo = label.halo.map { largest($0.width) } ?? 0
            let offset = max(largest(label.offsetX), largest(label.offsetY))
            // A generous bound: 1.5 em per character covers the widest glyphs.
            let longest = Double(max(1, map.longestLabel[index])) * size * (1.5 + max(0, label.letterSpacing))
            switch label.placement {
            case .line:
                // Glyphs sit within the text's width along the line from the anchor (the
                // text's middle slides at most half its width), then a glyph's box around.
                reach = max(reach, longest + size * 1.5 + 2 * halo + offset + 2)
            case .point:
                var width = longest
                var height = size * 1.5
                if let maxWidth = label.maxWidth {
                    width = min(longest, maxWidth * size * 1.5)
                    height = (longest / width).rounded(.up) * size * max(1.5, label.lineHeight ?? 0)
                }
                reach = max(
                    reach, max(width, height) + 2 * size + 2 * halo + offset + scale.pixels(label.distance) + 2)
            }
        }
        return reach
    }

    /// The placements of a feature of layer `index`, as `candidates` makes them; a point
    /// label's text is measured (`TextMeasures`), not laid out to be drawn.
    func placements(layer index: Int, feature item: Feature, anchor: PlanePoint?) -> [PlacementCandidate] {
        candidates(layer: index, feature: item, anchor: anchor, measuring: true).map(\.placement)
    }

    /// The candidates of a feature of layer `index`, in no particular order; `anchor` (Web
    /// Mercator metres) is where the whole feature's point labels go, moved into the visible
    /// part of a polygon the rendered area cuts. When `measuring`, point labels are only
    /// measured: their content is `.measured`, which draws nothing.
    func candidates(layer index: Int, feature item: Feature, anchor: PlanePoint?, measuring: Bool = false)
        -> [LabelCandidate]
    {
        let layer = map.document.layers[index]
        let scale = scales[index]
        if let filter = layer.filter, !filter.matches(item.properties, zoom: scale.zoom) { return [] }
        let values = EvaluationContext(zoom: scale.zoom, properties: item.properties)
        // Worked out once, and only for a point label: clipping a large polygon is not free.
        lazy var point = anchor.map { whole in
            area.map { VisibleLabelPoint.point(of: item, anchor: whole, view: view, area: $0) }
                ?? view.globalPixel(whole)
        }
        var made: [LabelCandidate] = []
        for r in layer.matchingRules(activeRules[index], item.properties, zoom: scale.zoom) {
            let rule = layer.rules[r]
            if let marker = rule.marker, let drawings = markerDrawings[index][r] {
                made += markers(marker, drawings, item, layer: index, rule: r)
            }
            if let label = rule.label {
                let texts = labels(
                    label, item, at: label.placement == .point ? point : nil, layer: index, rule: r, values, scale,
                    measuring: measuring)
                // Only the labels of a rule that asks to avoid the edge keep inside it.
                if label.avoidEdges, let edge {
                    made += texts.filter { $0.placement.boxes.allSatisfy { edge.contains($0) } }
                } else {
                    made += texts
                }
            }
        }
        return made
    }

    private func markers(
        _ marker: MarkerStyle, _ drawings: MarkerDrawings, _ feature: Feature, layer: Int, rule: Int
    ) -> [LabelCandidate] {
        guard let drawing = drawings.drawing(feature.properties) else { return [] }
        let half = drawing.halfExtent
        var made: [LabelCandidate] = []
        for geometry in feature.geometries where geometry.kind == .point {
            for v in 0..<geometry.vertexCount {
                let centre = view.globalPixel(PlanePoint(x: geometry.x(v), y: geometry.y(v)))
                let owner = PlacementCandidate.Owner(
                    kind: .marker, layer: layer, rule: rule, feature: feature.index, instance: made.count)
                let box = Rect(
                    minX: centre.x - half.x, minY: centre.y - half.y, maxX: centre.x + half.x, maxY: centre.y + half.y)
                made.append(
                    LabelCandidate(
                        placement: PlacementCandidate(
                            owner: owner, priority: marker.priority, position: 0, anchor: centre, boxes: [box],
                            allowOverlap: marker.allowOverlap, ignorePlacement: marker.ignorePlacement),
                        content: .marker(drawing, centre: centre), color: drawing.fill, halo: nil, text: ""))
            }
        }
        return made
    }

    private func labels(
        _ label: LabelStyle, _ feature: Feature, at point: PlanePoint?, layer: Int, rule: Int,
        _ values: EvaluationContext, _ scale: SymbolScale, measuring: Bool
    ) -> [LabelCandidate] {
        let string = label.transform.apply(label.text.resolve(values))
        let size = scale.pixels(label.size.value(values))
        guard !string.isEmpty, size >= LabelSpace.minimumTextPixels else { return [] }
        let font = FontSpec(family: label.font, bold: label.bold, italic: label.italic, sizePixels: size)
        var options = TextOptions(letterSpacing: label.letterSpacing * size)
        if label.placement == .point {
            options.maxWidth = label.maxWidth.map { $0 * size }
            options.lineHeight = label.lineHeight.map { $0 * size }
        }
        // A point label measured for placement alone needs its box, not its glyphs.
        let layout = measuring && label.placement == .point ? nil : text.layout(string, font: font, options: options)
        let extents =
            layout?.extents ?? text.sharedExtents(string, font: font, options: options)
        let color = label.color.value(values)
        let halo = label.halo.map { (color: $0.color.value(values), width: scale.pixels($0.width.value(values))) }
        let style = TextLook(
            label: label, layout: layout, extents: extents, string: string, color: color, halo: halo, layer: layer,
            rule: rule, feature: feature.index)
        switch label.placement {
        case .point:
            guard let point else { return [] }
            return pointLabels(style, at: point, values, scale)
        case .line:
            return lineLabels(style, feature, values, scale)
        }
    }

    /// What every candidate of one label shares.
    private struct TextLook {
        let label: LabelStyle
        /// Nil for a point label only measured.
        let layout: TextLayout?
        let extents: TextExtents
        let string: String
        let color: Color
        let halo: (color: Color, width: Double)?
        let layer: Int
        let rule: Int
        let feature: Int

        func candidate(
            instance: Int, position: Int, anchor: PlanePoint, boxes: [Rect], content: LabelCandidate.Content
        ) -> LabelCandidate {
            let owner = PlacementCandidate.Owner(
                kind: .mapLabel, layer: layer, rule: rule, feature: feature, instance: instance)
            return LabelCandidate(
                placement: PlacementCandidate(
                    owner: owner, priority: label.priority, position: position, anchor: anchor, boxes: boxes,
                    allowOverlap: label.allowOverlap, ignorePlacement: label.ignorePlacement),
                content: content, color: color, halo: halo, text: string)
        }
    }

    /// At a point: where the offset puts it, or at each of its positions in turn.
    private func pointLabels(_ look: TextLook, at point: PlanePoint, _ values: EvaluationContext, _ scale: SymbolScale)
        -> [LabelCandidate]
    {
        let extents = look.extents
        let label = look.label
        let dx = scale.pixels(label.offsetX.value(values))
        let dy = scale.pixels(label.offsetY.value(values))
        let ax = point.x + dx
        let ay = point.y + dy
        let grow = look.halo?.width ?? 0
        func candidate(_ position: Int, left: Double, top: Double) -> LabelCandidate {
            let box = Rect(
                minX: left - grow, minY: top - grow, maxX: left + extents.width + grow,
                maxY: top + extents.height + grow)
            return look.candidate(
                instance: 0, position: position, anchor: point, boxes: [box],
                content: look.layout.map { .text($0, corner: PlanePoint(x: left, y: top)) }
                    ?? .measured(corner: PlanePoint(x: left, y: top)))
        }
        guard let positions = label.positions else {
            // The text sits on the side of the anchor the offset points to (centred when 0).
            let left = dx > 0 ? ax : (dx < 0 ? ax - extents.width : ax - extents.width / 2)
            let top = dy > 0 ? ay : (dy < 0 ? ay - extents.height : ay - extents.height / 2)
            return [candidate(0, left: left, top: top)]
        }
        let distance = scale.pixels(label.distance)
        return positions.enumerated().map { index, position in
            let (x, y) = position.direction
            // Diagonal positions keep the same distance from the point to the text's corner.
            let d = x != 0 && y != 0 ? distance / 2.0.squareRoot() : distance
            let left = x > 0 ? ax + d : (x < 0 ? ax - d - extents.width : ax - extents.width / 2)
            let top = y > 0 ? ay + d : (y < 0 ? ay - d - extents.height : ay - extents.height / 2)
            return candidate(index, left: left, top: top)
        }
    }

    /// Along each line (and polygon ring): once halfway, or every `spacing`; each may slide
    /// half its length either way where the line bends too much.
    private func lineLabels(_ look: TextLook, _ feature: Feature, _ values: EvaluationContext, _ scale: SymbolScale)
        -> [LabelCandidate]
    {
        let label = look.label
        guard let layout = look.layout, let last = layout.glyphs.last else { return [] }
        let width = last.x + last.width
        let offset = scale.pixels(label.offsetY.value(values))
        let spacing = label.spacing.map { scale.pixels($0) }
        let maxAngle = label.maxAngle * .pi / 180
        let halo = look.halo?.width ?? 0
        var made: [LabelCandidate] = []
        var instance = 0
        for geometry in feature.geometries where geometry.kind != .point {
            for part in 0..<geometry.partCount {
                var points = geometry.partRange(part).map {
                    view.globalPixel(PlanePoint(x: geometry.x($0), y: geometry.y($0)))
                }
                if geometry.kind == .polygon, let first = points.first { points.append(first) }
                let line = Polyline(points).simplified(tolerance: 0.5)
                guard line.points.count >= 2, line.length >= width else { continue }
                let count = spacing.map { max(1, Int(line.length / $0)) } ?? 1
                for k in 0..<count {
                    let centre = (Double(k) + 0.5) * line.length / Double(count)
                    // Each repetition hangs on its own point of the line, its positions too.
                    let anchor = line.point(at: centre).point
                    var position = 0
                    for shift in [0, -width / 2, width / 2] {
                        guard
                            let curved = CurvedText.place(
                                layout, along: line, centre: centre + shift, offset: offset, maxAngle: maxAngle,
                                halo: halo)
                        else { continue }
                        made.append(
                            look.candidate(
                                instance: instance, position: position, anchor: anchor,
                                boxes: curved.glyphs.map(\.box),
                                content: .curved(curved)))
                        position += 1
                    }
                    instance += 1
                }
            }
        }
        return made
    }
}
