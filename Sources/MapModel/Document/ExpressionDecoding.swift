import Geodesy

/// Reading expressions from the map document, with their types checked. Every error names the
/// JSON path of the expression at fault: `layers[2].line.width: interpolate expects a number
/// output, got a colour`.
extension JSONNode {
    /// Whether this value is written as an expression: an array that starts with an operator name.
    var isExpression: Bool {
        guard case .array(let items) = value, case .string? = items.first else { return false }
        return true
    }

    /// A style key's value: a constant read by `constant`, or an expression that yields the
    /// key's type (with `fallback` for features where it yields nothing usable).
    func styleValue<Value: StyleValueType>(
        fallback: Value, constant: (JSONNode) throws -> Value
    ) throws -> StyleValue<Value> {
        guard isExpression else { return .constant(try constant(self)) }
        let expression = try self.expression(Value.valueType)
        if case .literal(let value) = expression, let constant = Value(value) { return .constant(constant) }
        return .expression(expression, fallback: fallback)
    }

    /// An expression whose value fits `expected`.
    func expression(_ expected: ValueType) throws -> StyleExpression {
        let (expression, type) = try typedExpression(hint: expected)
        guard type.fits(expected) else { throw error("expected \(expected.withArticle), got \(type.withArticle)") }
        return expression
    }

    /// An expression and the type it yields. `hint` is the type wanted here: it decides what a
    /// string literal is (a colour where a colour is wanted).
    func typedExpression(hint: ValueType) throws -> (StyleExpression, ValueType) {
        switch value {
        case .number(let n): return (.literal(.number(n)), .number)
        case .bool(let b): return (.literal(.bool(b)), .boolean)
        case .null: return (.literal(.null), .value)
        case .string(let s):
            let color = Color(parsing: s)
            if hint == .color {
                guard let color else {
                    throw error("\("\"\(s)\"") is not a colour (use #rrggbb, #rrggbbaa or a CSS colour name)")
                }
                return (.literal(.color(color)), .color)
            }
            if let color, hint != .string, hint != .value { return (.literal(.color(color)), .color) }
            return (.literal(.string(s)), .string)
        case .object:
            throw error(
                "expected \(hint.withArticle) or an expression (an array such as [\"get\", \"name\"]), got an object")
        case .array(let items):
            guard case .string(let op) = items.first else {
                throw error("an expression is an array that starts with an operator name, such as [\"get\", \"name\"]")
            }
            return try operation(op, arguments: Array(try array().dropFirst()), hint: hint)
        }
    }

    private func operation(_ op: String, arguments args: [JSONNode], hint: ValueType) throws -> (
        StyleExpression, ValueType
    ) {
        func count(_ range: ClosedRange<Int>, _ what: String) throws {
            guard range.contains(args.count) else {
                throw error("\(op) expects \(what), got \(args.count) argument\(args.count == 1 ? "" : "s")")
            }
        }
        func attributeName() throws -> String {
            try count(1...1, "1 argument (an attribute name)")
            let name = try args[0].string()
            guard !name.isEmpty else { throw args[0].error("the attribute name cannot be empty") }
            return name
        }
        switch op {
        case "get": return (.get(try attributeName()), .value)
        case "has": return (.has(try attributeName()), .boolean)
        case "zoom":
            try count(0...0, "no arguments")
            return (.zoom, .number)
        case "match": return try match(args, hint: hint)
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw error("case expects condition, output pairs and a fallback output, got \(args.count) arguments")
            }
            let (outputs, type) = try self.outputs(
                op, stride(from: 1, to: args.count, by: 2).map { args[$0] } + [args.last!], hint)
            var branches: [StyleExpression.CaseBranch] = []
            for i in stride(from: 0, to: args.count - 1, by: 2) {
                branches.append(
                    StyleExpression.CaseBranch(test: try args[i].expression(.boolean), output: outputs[i / 2]))
            }
            return (.condition(branches, otherwise: outputs.last!), type)
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else {
                throw error(
                    "step expects an input, a first output, then stop, output pairs; got \(args.count) arguments")
            }
            let input = try args[0].expression(.number)
            let (outputs, type) = try self.outputs(
                op, [args[1]] + stride(from: 3, to: args.count, by: 2).map { args[$0] }, hint)
            let stops = try self.stops(Array(args.dropFirst(2)), Array(outputs.dropFirst()))
            return (.step(input, first: outputs[0], stops: stops), type)
        case "interpolate": return try interpolate(args, hint: hint)
        case "coalesce":
            try count(1...Int.max, "at least 1 argument")
            let (outputs, type) = try self.outputs(op, args, hint)
            return (.coalesce(outputs), type)
        case "==", "!=", "<", "<=", ">", ">=":
            try count(2...2, "2 arguments")
            let comparison = StyleExpression.ComparisonOperator(rawValue: op)!
            return (.compare(comparison, try args[0].expression(.value), try args[1].expression(.value)), .boolean)
        case "!":
            try count(1...1, "1 argument")
            return (.not(try args[0].expression(.boolean)), .boolean)
        case "all": return (.all(try args.map { try $0.expression(.boolean) }), .boolean)
        case "any": return (.any(try args.map { try $0.expression(.boolean) }), .boolean)
        case "concat":
            try count(1...Int.max, "at least 1 argument")
            return (.concat(try args.map { try $0.expression(.value) }), .string)
        case "upcase", "downcase", "to-string":
            try count(1...1, "1 argument")
            let a = try args[0].expression(.value)
            return (op == "upcase" ? .upcase(a) : op == "downcase" ? .downcase(a) : .toString(a), .string)
        case "to-number":
            try count(1...Int.max, "at least 1 argument")
            return (.toNumber(try args.map { try $0.expression(.value) }), .number)
        default:
            guard let math = StyleExpression.MathOperator(rawValue: op) else {
                throw error("unknown expression operator \("\"\(op)\"") (see docs/style/expressions.md)")
            }
            switch math {
            case .add, .multiply, .min, .max: try count(1...Int.max, "at least 1 argument")
            case .subtract: try count(1...2, "1 or 2 arguments")
            case .divide, .remainder, .power: try count(2...2, "2 arguments")
            case .abs, .round, .floor, .ceil, .sqrt, .ln, .log10: try count(1...1, "1 argument")
            }
            return (.math(math, try args.map { try $0.expression(.number) }), .number)
        }
    }

    /// The outputs of a branching operator and the type they share: the one wanted here,
    /// checked on each output, or (where any value does) the outputs' common type.
    private func outputs(_ op: String, _ nodes: [JSONNode], _ hint: ValueType) throws -> ([StyleExpression], ValueType)
    {
        var common: ValueType?
        var outputs: [StyleExpression] = []
        for node in nodes {
            let (output, type) = try node.typedExpression(hint: hint)
            guard type.fits(hint) else {
                throw error("\(op) expects \(hint.withArticle) output, got \(type.withArticle)")
            }
            outputs.append(output)
            common = common == nil || common == type ? type : .value
        }
        return (outputs, hint == .value ? (common ?? .value) : hint)
    }

    /// The stops of `stop, output` pairs (the outputs already read): numbers in increasing order.
    private func stops(_ pairs: [JSONNode], _ outputs: [StyleExpression]) throws -> [StyleExpression.Stop] {
        var stops: [StyleExpression.Stop] = []
        for i in stride(from: 0, to: pairs.count, by: 2) {
            guard case .number(let input) = pairs[i].value else {
                throw pairs[i].error("a stop is a number, got \(pairs[i].value.typeDescription)")
            }
            if let previous = stops.last, input <= previous.input {
                throw pairs[i].error(
                    "stops must increase: \(DecimalFormat.shortest(input)) follows \(DecimalFormat.shortest(previous.input))"
                )
            }
            stops.append(StyleExpression.Stop(input: input, output: outputs[i / 2]))
        }
        return stops
    }

    private func interpolate(_ args: [JSONNode], hint: ValueType) throws -> (StyleExpression, ValueType) {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw error(
                "interpolate expects a type, an input, then stop, output pairs; got \(args.count) arguments")
        }
        let kindNode = args[0]
        let kindItems = try kindNode.array()
        let kind: StyleExpression.Interpolation
        switch kindItems.first.flatMap({ try? $0.string() }) {
        case "linear":
            guard kindItems.count == 1 else { throw kindNode.error("[\"linear\"] takes no arguments") }
            kind = .linear
        case "exponential":
            guard kindItems.count == 2, case .number(let base) = kindItems[1].value, base > 0 else {
                throw kindNode.error("write [\"exponential\", BASE] with a base above 0")
            }
            kind = .exponential(base)
        default:
            throw kindNode.error("the interpolation type is [\"linear\"] or [\"exponential\", BASE]")
        }
        let input = try args[1].expression(.number)
        let (outputs, type) = try self.outputs(
            "interpolate", stride(from: 3, to: args.count, by: 2).map { args[$0] }, hint)
        guard type == .number || type == .color || type == .value else {
            throw error("interpolate expects a number or colour output, got \(type.withArticle)")
        }
        return (.interpolate(kind, input, stops: try stops(Array(args.dropFirst(2)), outputs)), type)
    }

    private func match(_ args: [JSONNode], hint: ValueType) throws -> (StyleExpression, ValueType) {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw error(
                "match expects an input, label, output pairs and a fallback output; got \(args.count) arguments")
        }
        let input = try args[0].expression(.value)
        let (outputs, type) = try self.outputs(
            "match", stride(from: 2, to: args.count, by: 2).map { args[$0] } + [args.last!], hint)
        var branches: [StyleExpression.MatchBranch] = []
        var seen: [ExpressionValue] = []
        var labelKind: String?
        for i in stride(from: 1, to: args.count - 1, by: 2) {
            let node = args[i]
            let items: [JSONNode] = if case .array = node.value { try node.array() } else { [node] }
            guard !items.isEmpty else { throw node.error("a match label list cannot be empty") }
            var labels: [ExpressionValue] = []
            for item in items {
                let label: ExpressionValue
                switch item.value {
                case .number(let n): label = .number(n)
                case .string(let s): label = .string(s)
                default:
                    throw item.error("a match label is a string or a number, got \(item.value.typeDescription)")
                }
                let kind = if case .number = label { "numbers" } else { "strings" }
                guard labelKind == nil || labelKind == kind else {
                    throw item.error("match labels must be all strings or all numbers")
                }
                labelKind = kind
                guard !seen.contains(label) else { throw item.error("the match label \(label.text) appears twice") }
                seen.append(label)
                labels.append(label)
            }
            branches.append(StyleExpression.MatchBranch(labels: labels, output: outputs[(i - 1) / 2]))
        }
        return (.match(input, branches, otherwise: outputs.last!), type)
    }
}
