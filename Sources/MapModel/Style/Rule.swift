/// One rule of a layer's style: which features it draws (a filter, or `else` for the features
/// no other rule drew), at which scales, and with which symbols.
///
/// A layer's rules are taken in order for each feature: every rule whose scale range holds the
/// view and whose filter the feature passes draws it, until one that says `stop`. Rules with
/// `else` draw the features no other rule drew. Drawing goes rule by rule: the first rule's
/// symbols for all its features, then the next rule's (so a casing rule under a core rule
/// works across every road).
public struct Rule: Sendable, Equatable {
    public var name: String?
    public var filter: Filter?
    public var isElse: Bool = false
    public var scales: ScaleRange = .all
    public var stop: Bool = false
    public var fill: FillStyle?
    /// Strokes, drawn in order.
    public var lines: [LineStyle] = []
    public var marker: MarkerStyle?
    public var label: LabelStyle?

    public init() {}

    /// Whether it draws anything with the layer's features (as opposed to labels alone).
    public var drawsFeatures: Bool { fill != nil || !lines.isEmpty || marker != nil }

    /// The attribute names its filter and symbols read.
    public var attributeNames: [String] {
        (filter?.attributeNames ?? []) + (fill?.attributeNames ?? []) + lines.flatMap(\.attributeNames)
            + (marker?.attributeNames ?? []) + (label?.attributeNames ?? [])
    }
}

extension Layer {
    /// The rules that draw at this scale denominator, by index.
    public func rules(atScale scale: Double) -> [Int] {
        rules.indices.filter { rules[$0].scales.contains(scale) }
    }

    /// Which of the `active` rules draw a feature (see `Rule`), in order. The layer's own
    /// filter is not applied here.
    public func matchingRules(_ active: [Int], _ properties: Properties, zoom: Double) -> [Int] {
        var matched: [Int] = []
        for index in active where !rules[index].isElse {
            let rule = rules[index]
            if let filter = rule.filter, !filter.matches(properties, zoom: zoom) { continue }
            matched.append(index)
            if rule.stop { return matched }
        }
        guard matched.isEmpty else { return matched }
        for index in active where rules[index].isElse {
            matched.append(index)
            if rules[index].stop { break }
        }
        return matched
    }
}
