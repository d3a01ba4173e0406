import Geodesy
import MapModel

/// One layer's features as a view holds them while it draws the layer: compactly, in a
/// `FeatureTable` (flat coordinates, interned attributes), with only the attributes its
/// symbols read, each feature's rules as one of a few shared lists, and its bounds in global
/// pixels. A `Feature` value costs a few hundred bytes in arrays and strings besides its
/// vertices; a view of the whole world at a low zoom holds every feature of a layer (300,000
/// places, 200,000 shoreline pieces), so features are made from the table only for the
/// batch being painted (see `MapRenderer.paint`).
struct HeldLayer {
    private var table = FeatureTable()
    /// Each held feature's index in its source, by table position.
    private var indices: [Int] = []
    /// Each held feature's rule list, by table position, as a position in `ruleLists`.
    private var ruleListOf: [UInt32] = []
    private var ruleLists: [[Int]] = []
    private var ruleListIndex: [[Int]: UInt32] = [:]
    /// Table positions in drawing order (ascending feature index): slot `s` is `order[s]`.
    private var order: [UInt32] = []
    /// Bounds in global pixels, by slot.
    private(set) var bounds: [Rect] = []
    /// The kinds of geometry held, and every rule that draws a held feature.
    private(set) var kinds: Set<Geometry.Kind> = []
    private(set) var rules: Set<Int> = []

    var count: Int { indices.count }
    /// The largest feature index held (`Int.min` when none is).
    private(set) var largestIndex = Int.min

    /// Estimated heap bytes: the table's, and per feature its index, bounds, rule list and slot.
    var estimatedBytes: Int {
        table.byteCount + count * (MemoryLayout<Int>.stride + MemoryLayout<Rect>.stride + 8)
            + ruleLists.reduce(0) { $0 + MemoryCost.array($1.count, of: Int.self) }
    }

    /// Adds a feature with its bounds in global pixels and the rules that draw it.
    mutating func append(_ feature: Feature, pixelBounds: Rect, rules matched: [Int]) {
        table.append(feature)
        indices.append(feature.index)
        largestIndex = max(largestIndex, feature.index)
        bounds.append(pixelBounds)
        for geometry in feature.geometries where geometry.vertexCount > 0 { kinds.insert(geometry.kind) }
        if let known = ruleListIndex[matched] {
            ruleListOf.append(known)
        } else {
            let list = UInt32(ruleLists.count)
            ruleLists.append(matched)
            ruleListIndex[matched] = list
            rules.formUnion(matched)
            ruleListOf.append(list)
        }
    }

    /// Puts the features in drawing order: ascending index, and the order read among equal
    /// indices (a source need not keep them unique).
    ///
    /// Positions are sorted as 32-bit numbers and the bounds moved in place, cycle by cycle: a
    /// whole-world view holds hundreds of thousands of shoreline pieces, and sorting them as
    /// `Int`s with a copy of their bounds took 48 bytes a piece at once.
    mutating func finish() {
        table = table.finished()
        var sorted = Array(0..<UInt32(indices.count))
        sorted.sort { (indices[Int($0)], $0) < (indices[Int($1)], $1) }
        order = sorted
        bounds.permute(by: &sorted)
        ruleListIndex = [:]
    }

    /// The feature in slot `slot` (drawing order), its rules and its slot.
    func feature(_ slot: Int) -> (feature: Feature, rules: [Int], slot: Int) {
        let position = Int(order[slot])
        return (table.feature(position, index: indices[position]), ruleLists[Int(ruleListOf[position])], slot)
    }
}
