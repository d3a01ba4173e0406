import MapModel

/// One stroke as drawn for one feature: its style evaluated, sizes in pixels.
struct StrokeDrawing {
    var color: Color
    var width: Double
    /// Right of the line's direction (inward on rings) when positive.
    var offset: Double
    var dash: [Double]
    var cap: LineCap
    var join: LineJoin
}

extension LineStyle {
    /// Whether `drawing` can differ from feature to feature (a constant, or an expression of
    /// the zoom alone, is the same for every feature of a view). Dashes, caps and joins are
    /// constants.
    var readsAttributes: Bool {
        color.readsAttributes || width.readsAttributes || opacity.readsAttributes || offset.readsAttributes
    }

    /// The stroke for one feature at one zoom; nil when it draws nothing.
    func drawing(_ context: EvaluationContext, _ scale: SymbolScale) -> StrokeDrawing? {
        let width = scale.pixels(self.width.value(context))
        let opacity = min(max(self.opacity.value(context), 0), 1)
        let color = self.color.value(context).withOpacity(opacity)
        guard width > 0, color.alpha > 0 else { return nil }
        let dash =
            dashUnit == .points
            ? DashPattern.pixels(self.dash) { scale.pixels($0) } : DashPattern.pixels(self.dash) { $0 * width }
        return StrokeDrawing(
            color: color, width: width, offset: scale.pixels(offset.value(context)), dash: dash, cap: cap, join: join)
    }

    /// How far the stroke can reach from its geometry at a zoom, in pixels: a miter join
    /// reaches several widths out, and the offset moves it further.
    func reach(_ scale: SymbolScale) -> Double {
        let largest = { (value: StyleValue<Double>) in
            scale.pixels(value.largestMagnitude(zoom: scale.zoom) ?? scale.maxSize)
        }
        return largest(width) * 5 + largest(offset)
    }
}

/// A line style's strokes for the features of one pass. When none of the style's values reads
/// an attribute every feature gets the same stroke, so it is evaluated once for the pass, not
/// once per feature: per feature, the four `StyleValue.value` calls (each looking up generic
/// metadata) were 6% of the CPU time of the GSHHG shorelines at zoom 5.
struct LineStrokes {
    let line: LineStyle
    let scale: SymbolScale
    /// Whether every feature gets `shared`.
    let isShared: Bool
    /// The stroke of every feature, when shared (nil also when it draws nothing).
    let shared: StrokeDrawing?

    init(_ line: LineStyle, _ scale: SymbolScale) {
        self.line = line
        self.scale = scale
        isShared = !line.readsAttributes
        shared = isShared ? line.drawing(EvaluationContext(zoom: scale.zoom), scale) : nil
    }

    /// The stroke for one feature; nil when it draws nothing.
    func drawing(_ feature: Feature) -> StrokeDrawing? {
        if isShared { return shared }
        return line.drawing(EvaluationContext(zoom: scale.zoom, properties: feature.properties), scale)
    }
}
