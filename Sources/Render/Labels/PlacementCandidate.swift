import Geodesy

/// Who a placement candidate belongs to. The candidates of one owner are its alternative
/// positions (N, E, S, W, ...): at most one of them is placed, the first that is free.
enum PlacementOwner: Hashable, Sendable {
    /// The label of a feature: the layer's index in the document, the feature's in its store.
    case label(layer: Int, feature: Int)
    /// A feature's marker (icon) that takes part in collision, so that labels do not cover it.
    case marker(layer: Int, feature: Int)
    /// A grid label, numbered among the grid labels of the view or region that made it.
    case grid(Int)

    /// Breaks ties between owners of equal rank: a feature's marker before its label.
    var kindOrder: Int {
        switch self {
        case .marker: return 0
        case .label: return 1
        case .grid: return 2
        }
    }
}

/// A candidate's place in the one total order that placement follows. Ascending order is
/// placement order: higher priority first, then earlier layers, then the feature's order in
/// its source, then the order of the owner's alternative positions.
struct PlacementRank: Hashable, Sendable, Comparable {
    var priority: Double
    var layer: Int
    var feature: Int
    /// The position's index among its owner's alternatives: 0 is tried first.
    var position: Int

    init(priority: Double, layer: Int, feature: Int, position: Int = 0) {
        self.priority = priority
        self.layer = layer
        self.feature = feature
        self.position = position
    }

    static func < (a: PlacementRank, b: PlacementRank) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        if a.layer != b.layer { return a.layer < b.layer }
        if a.feature != b.feature { return a.feature < b.feature }
        return a.position < b.position
    }
}

/// One position of a label (or marker) that placement may take or refuse: what the placement
/// engine decides on. Made by the label style (text, font, position, text along a line);
/// positions are in global pixels at one resolution, so every view at that resolution sees
/// the same candidate.
struct PlacementCandidate: Sendable {
    let owner: PlacementOwner
    let rank: PlacementRank
    /// The point the owner hangs on (a feature's label point), in global pixels. All of an
    /// owner's candidates share it, and their boxes lie within the source's reach of it: the
    /// engine finds an owner's alternatives, and every rival of a candidate, through it.
    let anchor: PlanePoint
    /// What must stay clear of other labels, in global pixels: one box for straight text,
    /// several for text along a line.
    let boxes: [Rect]
    /// Placed whatever it overlaps (MapLibre's `text-allow-overlap`, `icon-allow-overlap`).
    var allowOverlap: Bool
    /// Blocks nothing: others may be placed over it (MapLibre's `*-ignore-placement`).
    var ignorePlacement: Bool
    /// The union of the boxes.
    let bounds: Rect

    init(
        owner: PlacementOwner, rank: PlacementRank, anchor: PlanePoint, boxes: [Rect], allowOverlap: Bool = false,
        ignorePlacement: Bool = false
    ) {
        self.owner = owner
        self.rank = rank
        self.anchor = anchor
        self.boxes = boxes
        self.allowOverlap = allowOverlap
        self.ignorePlacement = ignorePlacement
        bounds = boxes.reduce(Rect.empty) { $0.union($1) }
    }

    /// The total order of placement: rank, then the kind of owner.
    func outranks(_ other: PlacementCandidate) -> Bool {
        if rank != other.rank { return rank < other.rank }
        return owner.kindOrder < other.owner.kindOrder
    }

    /// Whether any box of this candidate shares area with any box of `other`.
    func overlaps(_ other: PlacementCandidate) -> Bool {
        guard bounds.overlaps(other.bounds) else { return false }
        for a in boxes { for b in other.boxes where a.overlaps(b) { return true } }
        return false
    }

    /// Whether any box shares area with `rect`.
    func overlaps(_ rect: Rect) -> Bool {
        bounds.overlaps(rect) && boxes.contains { $0.overlaps(rect) }
    }

    /// Whether this candidate, placed, keeps `other` (ranked below it) from being placed: the
    /// owner's later alternatives always; another owner's candidate when their boxes overlap,
    /// unless this one blocks nothing or `other` may overlap.
    func blocks(_ other: PlacementCandidate) -> Bool {
        if owner == other.owner { return true }
        guard !ignorePlacement, !other.allowOverlap else { return false }
        return overlaps(other)
    }
}
