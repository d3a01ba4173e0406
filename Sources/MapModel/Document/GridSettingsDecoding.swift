import Geodesy

/// Reading the document's `grid` object; every error names its JSON path.
extension GridSettings {
    /// The keys each grid object accepts (the schema test checks them against the JSON Schema).
    static let keys = [
        "type", "visible", "labelsVisible", "labelPosition", "labelPriority", "labelFormat", "labelUnit", "minSpacing",
        "levels",
    ]
    static let levelKeys = ["visible", "line", "text"]
    static let textKeys = ["font", "bold", "size", "color", "halo"]
}

extension JSONNode {
    func gridSettings() throws -> GridSettings {
        let object = try self.object(allowed: GridSettings.keys)
        var grid = GridSettings(type: try object.required("type").enumValue(GridType.self))
        if let n = object["visible"] { grid.visible = try n.bool() }
        if let n = object["labelsVisible"] { grid.labelsVisible = try n.bool() }
        if let n = object["labelPosition"] { grid.labelPosition = try n.enumValue(GridSettings.LabelPosition.self) }
        if let n = object["labelPriority"] { grid.labelPriority = try n.enumValue(GridSettings.LabelPriority.self) }
        if let n = object["labelFormat"] { grid.labelFormat = try n.enumValue(LatLongLabelFormat.self) }
        if let n = object["labelUnit"] { grid.labelUnit = try n.enumValue(MGRSLabelUnit.self) }
        if let n = object["minSpacing"] {
            grid.minSpacing = try n.number(in: 1...1000)
        }
        if let n = object["levels"] {
            guard case .object(let members) = n.value else {
                throw n.error("expected an object of levels by number, got \(n.value.typeDescription)")
            }
            let count = GridSettings.levelCount(grid.type)
            for member in members {
                let child = JSONNode(value: member.value, file: file, path: "\(n.path).\(member.key)")
                guard let level = Int(member.key), String(level) == member.key, (0..<count).contains(level) else {
                    throw child.error(
                        "\(grid.type.rawValue) has levels 0 to \(count - 1); \(DocumentError.quote(member.key)) is not one of them"
                    )
                }
                grid.levels[level] = try child.gridLevel()
            }
        }
        return grid
    }

    func gridLevel() throws -> GridLevelOverride {
        let object = try self.object(allowed: GridSettings.levelKeys)
        var level = GridLevelOverride()
        if let n = object["visible"] { level.visible = try n.bool() }
        if let n = object["line"] {
            let line = try n.object(allowed: SymbolKeys.gridLine)
            if let c = line["color"] { level.lineColor = try c.color() }
            if let w = line["width"] { level.lineWidth = try w.size() }
            if let d = line["dash"] { level.dash = try d.dashPattern() }
            if let c = line["cap"] { level.cap = try c.enumValue(LineCap.self) }
            if let j = line["join"] { level.join = try j.enumValue(LineJoin.self) }
            if let o = line["opacity"] { level.opacity = try o.opacity() }
        }
        if let n = object["text"] {
            let text = try n.object(allowed: GridSettings.textKeys)
            if let f = text["font"] {
                let font = try f.string()
                guard !font.isEmpty else { throw f.error("the font family cannot be empty") }
                level.font = font
            }
            if let b = text["bold"] { level.bold = try b.bool() }
            if let s = text["size"] { level.textSize = try s.size() }
            if let c = text["color"] { level.textColor = try c.color() }
            if let h = text["halo"] {
                let halo = try h.object(allowed: SymbolKeys.halo)
                if let c = halo["color"] { level.haloColor = try c.color() }
                if let w = halo["width"] { level.haloWidth = try w.size() }
                if level.haloColor == nil && level.haloWidth == nil { level.haloWidth = Halo().width }
            }
        }
        return level
    }
}
