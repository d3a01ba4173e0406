/// Reading the marking keys of a `grid` object (`style`, `crossLength`, `tickLength`,
/// `tickPosition`, `subTicks`, `frame`, `frameWidth`); every error names its JSON path.
extension GridMarkStyle {
    static let keys = ["style", "crossLength", "tickLength", "tickPosition", "subTicks", "frame", "frameWidth"]
}

extension JSONObject {
    func gridMarkStyle() throws -> GridMarkStyle {
        var marks = GridMarkStyle()
        if let n = self["style"] { marks.kind = try n.enumValue(GridMarkStyle.Kind.self) }
        if let n = self["crossLength"] {
            guard marks.kind == .crosses else { throw n.error("crossLength needs \"style\": \"crosses\"") }
            marks.crossLength = try n.number(in: GridMarkStyle.lengthRange)
        }
        if let n = self["tickLength"] {
            marks.tickLength = try n.number(in: GridMarkStyle.lengthRange)
        }
        if let n = self["tickPosition"] {
            guard marks.kind == .ticks else { throw n.error("tickPosition needs \"style\": \"ticks\"") }
            marks.tickPosition = try n.enumValue(GridMarkStyle.TickPosition.self)
        }
        if let n = self["subTicks"] {
            let count = try n.integer()
            guard GridMarkStyle.subTickRange.contains(count) else {
                throw n.error(
                    "\(count) is out of range (\(GridMarkStyle.subTickRange.lowerBound) to \(GridMarkStyle.subTickRange.upperBound) sub-ticks between lines)"
                )
            }
            marks.subTicks = count
        }
        if let n = self["frame"] { marks.frame = try n.enumValue(GridMarkStyle.Frame.self) }
        if let n = self["frameWidth"] {
            guard marks.frame != .none else { throw n.error("frameWidth needs a \"frame\": zebra or line") }
            marks.frameWidth = try n.number(in: GridMarkStyle.frameWidthRange)
        }
        return marks
    }
}
