import MapModel

/// How big a layer's symbols are in a view: points to pixels, times the reference-scale
/// factor `referenceScale / viewScale` for layers that scale their symbols.
struct SymbolScale {
    /// Pixels per authored point.
    let factor: Double

    init(layer: Layer, map: MapDocument, view: View) {
        var factor = view.pixelsPerPoint
        if layer.scalesSymbols, let reference = map.referenceScale {
            factor *= reference / view.scale
        }
        self.factor = factor
    }

    func pixels(_ points: Double) -> Double { points * factor }
}
