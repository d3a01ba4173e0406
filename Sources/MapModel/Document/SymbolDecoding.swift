import Foundation
import Geodesy

/// The keys each symbol object accepts (the schema test checks them against the JSON Schema).
enum SymbolKeys {
    static let line = ["color", "width", "opacity", "offset", "dash", "dashUnit", "cap", "join"]
    /// A grid level's line: constants only, no offset.
    static let gridLine = ["color", "width", "dash", "cap", "join", "opacity"]
    static let marker = [
        "shape", "icon", "size", "fill", "opacity", "outline", "rotation", "placement", "spacing", "allowOverlap",
        "ignorePlacement", "priority",
    ]
    static let fill = ["color", "opacity", "pattern", "hatch", "outline"]
    static let pattern = ["image", "size"]
    static let hatch = ["angle", "spacing", "width", "color"]
    static let label = [
        "attribute", "text", "font", "bold", "italic", "size", "color", "halo", "offset", "priority", "placement",
        "spacing", "maxAngle", "positions", "distance", "maxWidth", "transform", "letterSpacing", "lineHeight",
        "avoidEdges", "allowOverlap", "ignorePlacement",
    ]
    static let halo = ["color", "width"]
}

/// Reading symbols from the map document; every error names the JSON path.
extension JSONNode {
    func color() throws -> Color {
        let text = try string()
        guard let color = Color(parsing: text) else {
            throw error("\(DocumentError.quote(text)) is not a colour (use #rrggbb, #rrggbbaa or a CSS colour name)")
        }
        return color
    }

    func positiveNumber(allowZero: Bool) throws -> Double {
        let n = try number()
        guard allowZero ? n >= 0 : n > 0 else {
            throw error("must be \(allowZero ? "zero or more" : "greater than zero"), got \(DecimalFormat.shortest(n))")
        }
        return n
    }

    /// A size in points: zero or more, and not absurd (a 1000 pt symbol is a mistake).
    func size() throws -> Double {
        let n = try positiveNumber(allowZero: true)
        guard n <= 1000 else { throw error("\(DecimalFormat.shortest(n)) pt is too large (at most 1000)") }
        return n
    }

    func opacity() throws -> Double { try number(in: 0...1) }

    func enumValue<E: RawRepresentable & CaseIterable>(_: E.Type) throws -> E where E.RawValue == String {
        let text = try string()
        guard let value = E(rawValue: text) else {
            throw error(
                "\(DocumentError.quote(text)) is not one of: \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    // Style values: a constant checked as before, or an expression of the right type.

    func colorValue(_ fallback: Color) throws -> StyleValue<Color> {
        try styleValue(fallback: fallback) { try $0.color() }
    }

    func sizeValue(_ fallback: Double) throws -> StyleValue<Double> {
        try styleValue(fallback: fallback) { try $0.size() }
    }

    func opacityValue() throws -> StyleValue<Double> {
        try styleValue(fallback: 1) { try $0.opacity() }
    }

    /// An offset or a rotation: any sign, within `limit`.
    func signedValue(_ limit: Double) throws -> StyleValue<Double> {
        try styleValue(fallback: 0) { try $0.number(in: -limit...limit) }
    }

    /// A dash pattern: lengths zero or more, not all zero.
    func dashPattern() throws -> [Double] {
        let dash = try array().map { try $0.size() }
        if !dash.isEmpty, dash.allSatisfy({ $0 == 0 }) {
            throw error("a dash pattern needs a length above zero")
        }
        return dash
    }

    /// A PNG or SVG file, relative to the document's folder.
    func image(base: String) throws -> ImageReference {
        let given = try string()
        guard !given.isEmpty else { throw error("the image path is empty: give a .png or .svg file") }
        let path = MapDocument.resolve(given, against: base)
        guard let format = ImageReference.Format(rawValue: (path as NSString).pathExtension.lowercased()) else {
            throw error("\"\(given)\" is neither a .png nor an .svg file")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw error("image not found: \(path)")
        }
        return ImageReference(path: path, format: format, place: self.path)
    }

    func lineStyle() throws -> LineStyle {
        let object = try self.object(allowed: SymbolKeys.line)
        var style = LineStyle()
        if let n = object["color"] { style.color = try n.colorValue(.black) }
        if let n = object["width"] { style.width = try n.sizeValue(1) }
        if let n = object["opacity"] { style.opacity = try n.opacityValue() }
        if let n = object["offset"] { style.offset = try n.signedValue(1000) }
        if let n = object["dash"] { style.dash = try n.dashPattern() }
        if let n = object["dashUnit"] { style.dashUnit = try n.enumValue(LineStyle.DashUnit.self) }
        if let n = object["cap"] { style.cap = try n.enumValue(LineCap.self) }
        if let n = object["join"] { style.join = try n.enumValue(LineJoin.self) }
        return style
    }

    /// One stroke, or a list of strokes drawn in order.
    func lineStyles() throws -> [LineStyle] {
        guard case .array = value else { return [try lineStyle()] }
        let strokes = try array().map { try $0.lineStyle() }
        guard !strokes.isEmpty else { throw error("give at least one stroke") }
        return strokes
    }

    func markerStyle(base: String) throws -> MarkerStyle {
        let object = try self.object(allowed: SymbolKeys.marker)
        var style = MarkerStyle()
        if let n = object["shape"] { style.shape = try n.enumValue(MarkerShape.self) }
        if let n = object["icon"] {
            guard object["shape"] == nil else { throw n.error("give a marker either a shape or an icon, not both") }
            style.icon = try n.image(base: base)
        }
        if let n = object["size"] { style.size = try n.sizeValue(MarkerStyle.defaultShapeSize) }
        if let n = object["fill"] { style.fill = try n.colorValue(style.fill.constant!) }
        if let n = object["opacity"] { style.opacity = try n.opacityValue() }
        if let n = object["outline"] { style.outline = try n.lineStyle() }
        if let n = object["rotation"] { style.rotation = try n.signedValue(360_000) }
        if let n = object["placement"] { style.placement = try n.enumValue(MarkerStyle.Placement.self) }
        if let n = object["spacing"] {
            style.spacing = try n.number(in: 1...10_000)
        }
        if let n = object["allowOverlap"] { style.allowOverlap = try n.bool() }
        if let n = object["ignorePlacement"] { style.ignorePlacement = try n.bool() }
        if let n = object["priority"] { style.priority = try n.number() }
        return style
    }

    func fillStyle(base: String) throws -> FillStyle {
        let object = try self.object(allowed: SymbolKeys.fill)
        var style = FillStyle()
        if let n = object["color"] { style.color = try n.colorValue(style.color.constant!) }
        if let n = object["opacity"] { style.opacity = try n.opacityValue() }
        if let n = object["pattern"] {
            let pattern = try n.object(allowed: SymbolKeys.pattern)
            var value = FillStyle.Pattern(image: try pattern.required("image").image(base: base))
            if let s = pattern["size"] { value.size = try s.positiveNumber(allowZero: false) }
            if let size = value.size, size > 1000 {
                throw pattern["size"]!.error("\(DecimalFormat.shortest(size)) pt is too large (at most 1000)")
            }
            style.pattern = value
        }
        if let n = object["hatch"] {
            let hatch = try n.object(allowed: SymbolKeys.hatch)
            var value = FillStyle.Hatch()
            if let a = hatch["angle"] { value.angle = try a.number(in: -360...360) }
            if let s = hatch["spacing"] { value.spacing = try s.number(in: 0.5...1000) }
            if let w = hatch["width"] { value.width = try w.size() }
            if let c = hatch["color"] { value.color = try c.colorValue(.black) }
            guard value.width < value.spacing else {
                throw n.error("the hatch width must be less than its spacing (lines that wide fill the area)")
            }
            style.hatch = value
        }
        if let n = object["outline"] { style.outline = try n.lineStyle() }
        return style
    }

    func labelStyle() throws -> LabelStyle {
        let object = try self.object(allowed: SymbolKeys.label)
        let text: LabelContent
        switch (object["attribute"], object["text"]) {
        case (let attribute?, nil):
            let name = try attribute.string()
            guard !name.isEmpty else { throw attribute.error("the attribute name cannot be empty") }
            text = .template(.attribute(name))
        case (nil, let template?) where template.isExpression:
            text = .expression(try template.expression(.value))
        case (nil, let template?):
            switch LabelText.template(try template.string()) {
            case .success(let parsed): text = .template(parsed)
            case .failure(let failure): throw template.error(failure.message)
            }
        case (nil, nil):
            throw error(
                "a label needs \"attribute\" (an attribute name) or \"text\" (a template like \"{name}\", or an expression)"
            )
        case (_?, _?):
            throw error("give a label either \"attribute\" or \"text\", not both")
        }
        var style = LabelStyle(text: text)
        if let n = object["font"] {
            style.font = try n.string()
            guard !style.font.isEmpty else { throw n.error("the font family cannot be empty") }
        }
        if let n = object["bold"] { style.bold = try n.bool() }
        if let n = object["italic"] { style.italic = try n.bool() }
        if let n = object["size"] { style.size = try n.sizeValue(10) }
        if let n = object["color"] { style.color = try n.colorValue(style.color.constant!) }
        if let n = object["halo"] {
            let halo = try n.object(allowed: SymbolKeys.halo)
            var value = HaloStyle()
            if let c = halo["color"] { value.color = try c.colorValue(.white) }
            if let w = halo["width"] { value.width = try w.sizeValue(1) }
            style.halo = value
        }
        if let n = object["offset"] {
            let parts = try n.array()
            guard parts.count == 2 else { throw n.error("an offset is [dx, dy] in points") }
            style.offsetX = try parts[0].signedValue(1000)
            style.offsetY = try parts[1].signedValue(1000)
        }
        if let n = object["priority"] { style.priority = try n.number() }
        if let n = object["placement"] { style.placement = try n.enumValue(LabelStyle.Placement.self) }
        if let n = object["spacing"] { style.spacing = try n.number(in: 1...10_000) }
        if let n = object["maxAngle"] { style.maxAngle = try n.number(in: 0...180) }
        if let n = object["positions"] {
            let items = try n.array()
            guard !items.isEmpty else { throw n.error("give at least one position (N, NE, E, SE, S, SW, W, NW, C)") }
            var positions: [LabelStyle.Position] = []
            for item in items {
                let position = try item.enumValue(LabelStyle.Position.self)
                guard !positions.contains(position) else { throw item.error("\(position.rawValue) is listed twice") }
                positions.append(position)
            }
            style.positions = positions
        }
        if let n = object["distance"] { style.distance = try n.size() }
        if let n = object["maxWidth"] { style.maxWidth = try n.number(in: 1...1000) }
        if let n = object["transform"] { style.transform = try n.enumValue(LabelStyle.TextTransform.self) }
        if let n = object["letterSpacing"] { style.letterSpacing = try n.number(in: -1...10) }
        if let n = object["lineHeight"] { style.lineHeight = try n.number(in: 0.5...10) }
        if let n = object["avoidEdges"] { style.avoidEdges = try n.bool() }
        if let n = object["allowOverlap"] { style.allowOverlap = try n.bool() }
        if let n = object["ignorePlacement"] { style.ignorePlacement = try n.bool() }
        if style.placement == .line {
            for key in ["positions", "maxWidth"] where object[key] != nil {
                throw object[key]!.error("\(key) is for labels placed at points, not along lines")
            }
        } else {
            for key in ["spacing", "maxAngle"] where object[key] != nil {
                throw object[key]!.error("\(key) is for labels along lines (\"placement\": \"line\")")
            }
        }
        return style
    }

    func filter() throws -> Filter {
        if isExpression { return .expression(try expression(.boolean)) }
        guard case .object(let members) = value else {
            throw error("a filter is an object or an expression, got \(value.typeDescription)")
        }
        let keys = members.map(\.key)
        if keys.count == 1, let combinator = keys.first, ["all", "any", "not"].contains(combinator) {
            let object = try self.object(allowed: [combinator])
            let child = try object.required(combinator)
            switch combinator {
            case "all": return .all(try child.array().map { try $0.filter() })
            case "any": return .any(try child.array().map { try $0.filter() })
            default: return .not(try child.filter())
            }
        }
        let operators = Filter.Comparison.allCases.map(\.rawValue) + ["in", "notIn", "exists"]
        let object = try self.object(allowed: ["property"] + operators)
        let property = try object.required("property").string()
        let given = keys.filter { $0 != "property" }
        guard given.count == 1, let op = given.first else {
            throw error(
                "a filter needs \"property\" and exactly one operator (\(operators.joined(separator: ", "))), or all/any/not"
            )
        }
        let operand = object.includingNull(op)!
        switch op {
        case "in": return .isIn(property: property, try operand.array().map { try $0.propertyValue() })
        case "notIn": return .notIn(property: property, try operand.array().map { try $0.propertyValue() })
        case "exists": return .exists(property: property, try operand.bool())
        default: return .compare(property: property, Filter.Comparison(rawValue: op)!, try operand.propertyValue())
        }
    }

    func propertyValue() throws -> PropertyValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        default: throw error("a filter value is a string, number, boolean or null, got \(value.typeDescription)")
        }
    }
}
