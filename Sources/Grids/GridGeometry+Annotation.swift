import Geodesy

extension GridGeometry {
    /// The geometry with every latitude and longitude line label rewritten by the style
    /// `style(step)` gives for its family of lines `step` degrees apart (so every label of a
    /// family has as many decimals); a nil style, and every other label, keeps its text.
    public func annotatingAngles(_ style: (Double) -> AngleAnnotationStyle?) -> GridGeometry {
        var copy = self
        for i in copy.labels.indices {
            let label = copy.labels[i]
            guard let axis = label.axis, axis == .latitude || axis == .longitude, let value = label.lineValue else {
                continue
            }
            let step = (axis.labelsOnHorizontalEdges ? spacing?.x.step : spacing?.y.step) ?? 1
            guard let annotation = style(step) else { continue }
            copy.labels[i].text = GridText.latLong(value, axis: axis, annotation: annotation)
        }
        return copy
    }
}
