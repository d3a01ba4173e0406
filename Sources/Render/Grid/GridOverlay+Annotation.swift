import Geodesy
import Grids
import MapModel

/// The grid's `annotation` in a render: latitudes and longitudes written its way, on the map
/// and at the edges, and each edge naming the lines its side asks for, horizontal or turned
/// to read along the edge. Without an annotation every answer is the grid's old one.
extension GridOverlay {
    /// The text of a line's label: a latitude or longitude as the annotation writes it, with
    /// the decimals of its family's interval (so every label of the family has as many);
    /// other values (metres, cells) as `GridText` wrote them.
    func annotatedText(_ text: String, axis: GridAxis?, value: Double, spacing: (x: GridSpacing, y: GridSpacing)?)
        -> String
    {
        guard settings.type == .latlong, let axis, axis == .latitude || axis == .longitude,
            let style = angleStyle(axis, spacing: spacing)
        else { return text }
        return GridText.latLong(value, axis: axis, annotation: style)
    }

    func angleStyle(_ axis: GridAxis, spacing: (x: GridSpacing, y: GridSpacing)?) -> AngleAnnotationStyle? {
        guard let annotation = settings.annotation else { return nil }
        let step = (axis.labelsOnHorizontalEdges ? spacing?.x.step : spacing?.y.step) ?? 1
        return annotation.angleStyle(step: step)
    }

    /// Whether `edge` names a line along `axis`: by default meridians and eastings on the top
    /// and bottom, parallels and northings on the left and right.
    func names(_ edge: GridEdge, _ axis: GridAxis) -> Bool {
        guard let annotation = settings.annotation, let side = GridAnnotation.Edge(rawValue: edge.rawValue) else {
            return edge == .top || edge == .bottom ? axis.labelsOnHorizontalEdges : axis.labelsOnVerticalEdges
        }
        guard axis.labelsOnHorizontalEdges || axis.labelsOnVerticalEdges else { return false }
        return annotation.names(side, linesUpTheMap: axis.labelsOnHorizontalEdges)
    }

    /// Whether labels on `edge` are turned a quarter to read along it, bottom to top.
    func turned(_ edge: GridEdge) -> Bool {
        guard let annotation = settings.annotation, let side = GridAnnotation.Edge(rawValue: edge.rawValue) else {
            return false
        }
        return annotation.turned(side)
    }

    /// The widest texts the annotation writes, for the reach of labels in tiles.
    var annotationSamples: [String] {
        guard settings.type == .latlong, let style = settings.annotation?.angleStyle(step: 1 / 3600.0) else {
            return []
        }
        let widest = -(178 + 58 / 60.0 + 58.8888 / 3600)
        return [
            GridText.latLong(widest, axis: .longitude, annotation: style),
            GridText.latLong(-88.9999, axis: .latitude, annotation: style),
        ]
    }
}
