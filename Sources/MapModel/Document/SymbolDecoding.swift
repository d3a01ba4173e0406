import Geodesy

/// The keys each symbol object accepts (the schema test checks them against the JSON Schema).
enum SymbolKeys {
    static let line = ["color", "width", "dash", "cap", "join", "opacity"]
    static let marker = ["shape", "size", "fill", "outline"]
    static let fill = ["color", "opacity", "outline"]
    static let label = ["attribute", "text", "font", "bold", "italic", "size", "color", "halo", "offset", "priority"]
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

    func lineSymbol() throws -> LineSymbol {
        let object = try self.object(allowed: SymbolKeys.line)
        var symbol = LineSymbol()
        if let n = object["color"] { symbol.color = try n.color() }
        if let n = object["width"] { symbol.width = try n.size() }
        if let n = object["dash"] {
            symbol.dash = try n.array().map { try $0.size() }
            if !symbol.dash.isEmpty, symbol.dash.allSatisfy({ $0 == 0 }) {
                throw n.error("a dash pattern needs a length above zero")
            }
        }
        if let n = object["cap"] { symbol.cap = try n.enumValue(LineCap.self) }
        if let n = object["join"] { symbol.join = try n.enumValue(LineJoin.self) }
        if let n = object["opacity"] { symbol.opacity = try n.opacity() }
        return symbol
    }

    func markerSymbol() throws -> MarkerSymbol {
        let object = try self.object(allowed: SymbolKeys.marker)
        var symbol = MarkerSymbol()
        if let n = object["shape"] { symbol.shape = try n.enumValue(MarkerShape.self) }
        if let n = object["size"] { symbol.size = try n.size() }
        if let n = object["fill"] { symbol.fill = try n.color() }
        if let n = object["outline"] { symbol.outline = try n.lineSymbol() }
        return symbol
    }

    func fillSymbol() throws -> FillSymbol {
        let object = try self.object(allowed: SymbolKeys.fill)
        var symbol = FillSymbol()
        if let n = object["color"] { symbol.color = try n.color() }
        if let n = object["opacity"] { symbol.opacity = try n.opacity() }
        if let n = object["outline"] { symbol.outline = try n.lineSymbol() }
        return symbol
    }

    func labelSymbol() throws -> LabelSymbol {
        let object = try self.object(allowed: SymbolKeys.label)
        let text: LabelText
        switch (object["attribute"], object["text"]) {
        case (let attribute?, nil):
            let name = try attribute.string()
            guard !name.isEmpty else { throw attribute.error("the attribute name cannot be empty") }
            text = .attribute(name)
        case (nil, let template?):
            switch LabelText.template(try template.string()) {
            case .success(let parsed): text = parsed
            case .failure(let failure): throw template.error(failure.message)
            }
        case (nil, nil):
            throw error("a label needs \"attribute\" (an attribute name) or \"text\" (a template like \"{name}\")")
        case (_?, _?):
            throw error("give a label either \"attribute\" or \"text\", not both")
        }
        var symbol = LabelSymbol(text: text)
        if let n = object["font"] {
            symbol.font = try n.string()
            guard !symbol.font.isEmpty else { throw n.error("the font family cannot be empty") }
        }
        if let n = object["bold"] { symbol.bold = try n.bool() }
        if let n = object["italic"] { symbol.italic = try n.bool() }
        if let n = object["size"] { symbol.size = try n.size() }
        if let n = object["color"] { symbol.color = try n.color() }
        if let n = object["halo"] {
            let halo = try n.object(allowed: SymbolKeys.halo)
            var value = Halo()
            if let c = halo["color"] { value.color = try c.color() }
            if let w = halo["width"] { value.width = try w.size() }
            symbol.halo = value
        }
        if let n = object["offset"] {
            let parts = try n.array()
            guard parts.count == 2 else { throw n.error("an offset is [dx, dy] in points") }
            symbol.offsetX = try parts[0].number(in: -1000...1000)
            symbol.offsetY = try parts[1].number(in: -1000...1000)
        }
        if let n = object["priority"] { symbol.priority = try n.number() }
        return symbol
    }

    func filter() throws -> Filter {
        guard case .object(let members) = value else {
            throw error("a filter is an object, got \(value.typeDescription)")
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
