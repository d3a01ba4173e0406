import Geodesy

/// Reading the document's `grid` object; every error names its JSON path.
extension GridSettings {
    /// The keys each grid object accepts (the schema test checks them against the JSON Schema).
    static let keys =
        [
            "type", "visible", "labelsVisible", "labelPosition", "labelPriority", "labelFormat", "labelUnit",
            "minSpacing",
            "interval", "offset", "levels", "crs", "annotation",
        ] + GridMarkStyle.keys
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
        if let n = object["annotation"] { try grid.annotate(n, labelFormatGiven: object["labelFormat"] != nil) }
        if let n = object["labelUnit"] { grid.labelUnit = try n.enumValue(MGRSLabelUnit.self) }
        if let n = object["crs"] {
            guard grid.type == .utm else { throw n.error("a grid's crs goes with \"type\": \"utm\"") }
            grid.crs = try n.string()
        }
        if let n = object["minSpacing"] {
            grid.minSpacing = try n.number(in: 1...1000)
        }
        if let n = object["interval"] {
            let (x, y) = try n.gridDistances(type: grid.type, format: grid.labelFormat, positive: true)
            grid.interval = GridInterval(x: x, y: y)
        }
        if let n = object["offset"] {
            guard grid.interval != nil else { throw n.error("an offset needs an interval") }
            let (x, y) = try n.gridDistances(type: grid.type, format: grid.labelFormat, positive: false)
            grid.interval?.offsetX = x
            grid.interval?.offsetY = y
        }
        grid.marks = try object.gridMarkStyle()
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

    /// A grid `interval` or `offset`: one distance for both families of lines or `[x, y]`.
    /// Latitude/longitude takes degrees, or a string in minutes (`"5'"`) or seconds
    /// (`"30\""`); the others whole metres.
    func gridDistances(type: GridType, format: LatLongLabelFormat, positive: Bool) throws -> (Double, Double) {
        if case .array = value {
            let items = try array()
            guard items.count == 2 else { throw error("expected one distance or two, [x, y]; got \(items.count)") }
            return (
                try items[0].gridDistance(type: type, format: format, positive: positive),
                try items[1].gridDistance(type: type, format: format, positive: positive)
            )
        }
        let d = try gridDistance(type: type, format: format, positive: positive)
        return (d, d)
    }

    func gridDistance(type: GridType, format: LatLongLabelFormat, positive: Bool) throws -> Double {
        let value: Double
        var written: String?
        if case .string(let text) = self.value, type == .latlong {
            written = DocumentError.quote(text)
            let units: [(suffix: String, perDegree: Double)] = [
                ("'", 60), ("′", 60), ("\"", 3600), ("″", 3600), ("°", 1),
            ]
            guard let unit = units.first(where: { text.hasSuffix($0.suffix) }),
                let n = Double(text.dropLast(unit.suffix.count)), n.isFinite
            else {
                throw error(
                    "\(DocumentError.quote(text)) is not an angle: write degrees (0.5), minutes (5') or seconds (30\")")
            }
            value = n / unit.perDegree
        } else {
            value = try number()
        }
        let limit = type == .latlong ? 180.0 : 10_000_000
        guard positive ? value > 0 && value <= limit : abs(value) <= limit else {
            let what = type == .latlong ? "degrees" : "metres"
            throw error(
                "\(DecimalFormat.shortest(value)) is out of range (\(positive ? "above 0" : "-\(DecimalFormat.shortest(limit))") to \(DecimalFormat.shortest(limit)) \(what))"
            )
        }
        // Lines lie on whole units, so their values and labels are exact.
        let perUnit = type != .latlong ? 1.0 : (format == .degreesMinutesSeconds ? 3600.0 : 10_000.0)
        let units = value * perUnit
        guard abs(units - units.rounded()) < 1e-6 * max(1, abs(units)) else {
            let unit =
                type != .latlong
                ? "metres"
                : (format == .degreesMinutesSeconds ? "seconds of arc" : "0.0001° (labelFormat decimalDegrees)")
            throw error("\(written ?? DecimalFormat.shortest(value)) is not a whole number of \(unit)")
        }
        return value
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
