import Foundation

/// What an expression is evaluated against: the view's zoom and one feature's attributes.
public struct EvaluationContext: Sendable {
    public var zoom: Double
    public var properties: Properties

    public init(zoom: Double, properties: Properties = Properties()) {
        self.zoom = zoom
        self.properties = properties
    }
}

extension StyleExpression {
    /// The value for one feature at one zoom. Never fails: an operation on a missing or
    /// unusable value yields null, and the style key then takes its default.
    public func evaluate(_ context: EvaluationContext) -> ExpressionValue {
        switch self {
        case .literal(let value): return value
        case .get(let name): return context.properties[name].map(ExpressionValue.init) ?? .null
        case .has(let name): return .bool((context.properties[name] ?? .null) != .null)
        case .zoom: return .number(context.zoom)
        case .match(let input, let branches, let otherwise):
            let value = input.evaluate(context)
            for branch in branches where branch.labels.contains(where: { $0.isEqual(to: value) }) {
                return branch.output.evaluate(context)
            }
            return otherwise.evaluate(context)
        case .condition(let branches, let otherwise):
            for branch in branches where branch.test.evaluate(context).bool == true {
                return branch.output.evaluate(context)
            }
            return otherwise.evaluate(context)
        case .step(let input, let first, let stops):
            guard let x = input.evaluate(context).number else { return .null }
            var chosen = first
            for stop in stops {
                guard x >= stop.input else { break }
                chosen = stop.output
            }
            return chosen.evaluate(context)
        case .interpolate(let kind, let input, let stops):
            guard let x = input.evaluate(context).number else { return .null }
            return StyleExpression.interpolate(kind, x, stops, context)
        case .coalesce(let items):
            for item in items {
                let value = item.evaluate(context)
                if value != .null { return value }
            }
            return .null
        case .math(let op, let items): return StyleExpression.math(op, items.map { $0.evaluate(context).number })
        case .compare(let op, let a, let b):
            let x = a.evaluate(context)
            let y = b.evaluate(context)
            return .bool(op.holds(equal: x.isEqual(to: y), order: x.compare(to: y)))
        case .not(let a): return a.evaluate(context).bool.map { .bool(!$0) } ?? .null
        case .all(let items): return .bool(items.allSatisfy { $0.evaluate(context).bool == true })
        case .any(let items): return .bool(items.contains { $0.evaluate(context).bool == true })
        case .concat(let items): return .string(items.map { $0.evaluate(context).text }.joined())
        case .upcase(let a): return .string(a.evaluate(context).text.uppercased())
        case .downcase(let a): return .string(a.evaluate(context).text.lowercased())
        case .toString(let a): return .string(a.evaluate(context).text)
        case .toNumber(let items):
            for item in items {
                let value = item.evaluate(context)
                if case .bool(let b) = value { return .number(b ? 1 : 0) }
                if let n = value.number { return .number(n) }
            }
            return .null
        }
    }

    /// Between the stops around `x` (clamped to the first and last), linearly or with an
    /// exponential curve; colours component by component (red, green, blue and alpha).
    static func interpolate(_ kind: Interpolation, _ x: Double, _ stops: [Stop], _ context: EvaluationContext)
        -> ExpressionValue
    {
        guard let first = stops.first, let last = stops.last else { return .null }
        if x <= first.input { return first.output.evaluate(context) }
        if x >= last.input { return last.output.evaluate(context) }
        let upper = stops.firstIndex { $0.input > x }!
        let a = stops[upper - 1]
        let b = stops[upper]
        let t: Double
        switch kind {
        case .linear: t = (x - a.input) / (b.input - a.input)
        case .exponential(let base):
            if base == 1 {
                t = (x - a.input) / (b.input - a.input)
            } else {
                t = (pow(base, x - a.input) - 1) / (pow(base, b.input - a.input) - 1)
            }
        }
        let lower = a.output.evaluate(context)
        let higher = b.output.evaluate(context)
        if let p = lower.number, let q = higher.number { return .number(p + (q - p) * t) }
        if let p = lower.color, let q = higher.color {
            func mix(_ u: Double, _ v: Double) -> Double { u + (v - u) * t }
            return .color(
                Color(
                    red: mix(p.red, q.red), green: mix(p.green, q.green), blue: mix(p.blue, q.blue),
                    alpha: mix(p.alpha, q.alpha)))
        }
        return .null
    }

    static func math(_ op: MathOperator, _ values: [Double?]) -> ExpressionValue {
        let numbers = values.compactMap { $0 }
        guard numbers.count == values.count, let first = numbers.first else { return .null }
        let result: Double
        switch op {
        case .add: result = numbers.reduce(0, +)
        case .multiply: result = numbers.reduce(1, *)
        case .subtract: result = numbers.count == 1 ? -first : first - numbers[1]
        case .divide: result = first / numbers[1]
        case .remainder: result = fmod(first, numbers[1])
        case .power: result = pow(first, numbers[1])
        case .min: result = numbers.min()!
        case .max: result = numbers.max()!
        case .abs: result = Swift.abs(first)
        case .round: result = first.rounded(.toNearestOrAwayFromZero)
        case .floor: result = first.rounded(.down)
        case .ceil: result = first.rounded(.up)
        case .sqrt: result = first.squareRoot()
        case .ln: result = Foundation.log(first)
        case .log10: result = Foundation.log10(first)
        }
        // Division by zero and the like give no value rather than an infinity to draw with.
        return result.isFinite ? .number(result) : .null
    }
}
