import Geodesy

/// Reading a grid's `annotation` object; every error names its JSON path.
extension GridAnnotation {
    static let keys = ["format", "precision", "padding", "hemisphere"] + Edge.allCases.map(\.rawValue)
    static let sideKeys = ["axis", "position", "direction"]
}

extension JSONNode {
    /// The annotation, and whether it gives any of the text keys (its format may be nil then).
    func gridAnnotation() throws -> (annotation: GridAnnotation, writesText: Bool) {
        let object = try self.object(allowed: GridAnnotation.keys)
        var annotation = GridAnnotation()
        var writesText = false
        if let n = object["format"] {
            annotation.format = try n.enumValue(GridAnnotation.Format.self)
            writesText = true
        }
        if let n = object["precision"] {
            let digits = try n.integer()
            let range = GridAnnotation.precisionRange
            guard range.contains(digits) else {
                throw n.error(
                    "\(digits) is out of range (\(range.lowerBound) to \(range.upperBound) decimals on the last unit)")
            }
            annotation.precision = digits
            writesText = true
        }
        if let n = object["padding"] {
            annotation.padding = try n.bool()
            writesText = true
        }
        if let n = object["hemisphere"] {
            annotation.hemisphere = try n.enumValue(HemisphereStyle.self)
            writesText = true
        }
        for edge in GridAnnotation.Edge.allCases {
            guard let n = object[edge.rawValue] else { continue }
            annotation[edge] = try n.annotationSide(default: annotation[edge])
        }
        return (annotation, writesText)
    }

    func annotationSide(default side: GridAnnotation.Side) throws -> GridAnnotation.Side {
        let object = try self.object(allowed: GridAnnotation.sideKeys)
        var side = side
        if let n = object["axis"] {
            let text = try n.string()
            guard let axis = GridAnnotation.Axis(rawValue: text) ?? GridAnnotation.Axis.aliases[text] else {
                let names = GridAnnotation.Axis.allCases.map(\.rawValue) + GridAnnotation.Axis.aliases.keys.sorted()
                throw n.error("\(DocumentError.quote(text)) is not one of: \(names.joined(separator: ", "))")
            }
            side.axis = axis
        }
        if let n = object["position"] { side.position = try n.enumValue(GridAnnotation.Position.self) }
        if let n = object["direction"] { side.direction = try n.enumValue(GridAnnotation.Direction.self) }
        return side
    }
}

extension GridSettings {
    /// Reads `annotation` (after `labelFormat`, before the interval, which the ladder checks):
    /// text keys without a format follow `labelFormat`, and a format without `labelFormat`
    /// puts the lines on its ladder (decimal degrees for `D`, minutes and seconds otherwise).
    mutating func annotate(_ node: JSONNode, labelFormatGiven: Bool) throws {
        var (annotation, writesText) = try node.gridAnnotation()
        if let format = annotation.format {
            if !labelFormatGiven { labelFormat = format.ladder }
        } else if writesText {
            // Any text key writes every latitude and longitude the annotation's way.
            annotation.format = labelFormat == .decimalDegrees ? .DD : .DMS
        }
        self.annotation = annotation
    }
}
