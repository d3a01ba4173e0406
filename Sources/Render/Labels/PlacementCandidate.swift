import Geodesy
import MapModel

/// One way of placing one thing that must stay clear of others (a map label, a marker): whose
/// it is, how it ranks, the boxes it covers in global pixels (several for text along a
/// line) and how it treats collisions. A label with alternative positions is several
/// candidates of one owner; at most one of them is placed.
struct PlacementCandidate {
    /// What is placed: a label of a feature (one per rule that labels it, and one per
    /// repetition along a line) or a marker at one point of a feature.
    ///
    /// Narrow fields, read as `Int`: a view of 300,000 places holds 600,000 candidates.
    struct Owner: Hashable {
        enum Kind: UInt8, Hashable {
            case marker, mapLabel
        }
        let feature: Int
        private let layer32: Int32
        private let rule32: Int32
        private let instance32: Int32
        let kind: Kind

        var layer: Int { Int(layer32) }
        var rule: Int { Int(rule32) }
        /// Which of the feature's labels or markers: a repetition along a line, a point of a
        /// multipoint.
        var instance: Int { Int(instance32) }

        init(kind: Kind, layer: Int, rule: Int, feature: Int, instance: Int) {
            self.kind = kind
            self.feature = feature
            layer32 = Int32(truncatingIfNeeded: layer)
            rule32 = Int32(truncatingIfNeeded: rule)
            instance32 = Int32(truncatingIfNeeded: instance)
        }
    }

    /// Placement order: higher priority first, then earlier layers, then file order, then the
    /// owner's own order (markers before labels, rule, instance), then the position among
    /// the alternatives.
    struct Rank: Comparable {
        let priority: Double
        let layer: Int
        let feature: Int
        let kind: Int
        let rule: Int
        let instance: Int
        let position: Int

        static func < (a: Rank, b: Rank) -> Bool {
            if a.priority != b.priority { return a.priority > b.priority }
            return (a.layer, a.feature, a.kind, a.rule, a.instance, a.position)
                < (b.layer, b.feature, b.kind, b.rule, b.instance, b.position)
        }
    }

    /// A candidate's identity: its owner and its position among the owner's alternatives.
    struct ID: Hashable {
        let owner: Owner
        let position: Int
    }

    let owner: Owner
    /// Placement order, made from the owner, the priority and the position (not stored: a
    /// pyramid of many labels holds hundreds of thousands of candidates).
    var rank: Rank {
        Rank(
            priority: priority, layer: owner.layer, feature: owner.feature, kind: Int(owner.kind.rawValue),
            rule: owner.rule, instance: owner.instance, position: position)
    }
    let priority: Double
    private let position32: Int32
    /// Which of the owner's alternatives this is.
    var position: Int { Int(position32) }
    /// Placed even where it overlaps others placed before it.
    let allowOverlap: Bool
    /// Others placed after it may overlap it.
    let ignorePlacement: Bool
    /// The point the candidate hangs on, in global pixels: a feature's label point, a
    /// marker's centre, a repetition's point on its line. Every box lies within the layer's
    /// reach of it, and an owner's alternatives share it: the placement engine finds a
    /// candidate's rivals, and its owner's other positions, through it.
    let anchor: PlanePoint
    /// All its boxes together.
    let bounds: Rect
    /// The boxes when there are several (text along a line); empty for one box, which is then
    /// `bounds`: no array to allocate for a point label or a marker.
    private let several: [Rect]
    /// The boxes it covers.
    var boxes: Boxes { Boxes(single: bounds, several: several) }

    /// A candidate's boxes, without an array for a single one.
    struct Boxes: RandomAccessCollection {
        let single: Rect
        let several: [Rect]
        var startIndex: Int { 0 }
        var endIndex: Int { several.isEmpty ? 1 : several.count }
        subscript(i: Int) -> Rect { several.isEmpty ? single : several[i] }
    }

    init(
        owner: Owner, priority: Double, position: Int, anchor: PlanePoint, boxes: [Rect], allowOverlap: Bool,
        ignorePlacement: Bool
    ) {
        self.owner = owner
        self.anchor = anchor
        self.priority = priority
        position32 = Int32(truncatingIfNeeded: position)
        self.allowOverlap = allowOverlap
        self.ignorePlacement = ignorePlacement
        bounds = boxes.reduce(Rect.empty) { $0.union($1) }
        several = boxes.count > 1 ? boxes : []
    }

    var id: ID { ID(owner: owner, position: position) }

    /// Estimated heap bytes besides the struct: its boxes when there are several.
    var heapBytes: Int { several.isEmpty ? 0 : MemoryCost.array(several.count, of: Rect.self) }

    func outranks(_ other: PlacementCandidate) -> Bool { rank < other.rank }

    func overlaps(_ other: PlacementCandidate) -> Bool {
        guard bounds.overlaps(other.bounds) else { return false }
        return boxes.contains { box in other.boxes.contains { box.overlaps($0) } }
    }

    /// Whether `other`, placed, keeps this one out: it overlaps, it does not let others over
    /// it, and this one does not go over others.
    func isBlocked(by other: PlacementCandidate) -> Bool {
        !allowOverlap && !other.ignorePlacement && overlaps(other)
    }

    /// Whether any box shares area with `rect`.
    func overlaps(_ rect: Rect) -> Bool {
        bounds.overlaps(rect) && boxes.contains { $0.overlaps(rect) }
    }

    /// Whether this candidate, placed, keeps `other` (ranked below it) out: the owner's later
    /// alternatives always, another owner's candidate when `other` is blocked by it.
    func blocks(_ other: PlacementCandidate) -> Bool {
        owner == other.owner || other.isBlocked(by: self)
    }
}
