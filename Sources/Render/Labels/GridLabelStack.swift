import Geodesy
import MapModel

/// The labels of a map's several grids, in document order: a later grid's label is left out
/// where it overlaps a label an earlier grid keeps, so the first grid's labels go first.
///
/// In tiles each grid's labels come from its `GridLabelRegions`, and whether a later grid
/// keeps a label follows from that label's box and the earlier grids' regions alone: every
/// metatile, and every map label placed against them, makes the same choice.
final class GridLabelStack: LabelObstacles {
    /// One per grid with labels, in document order.
    let regions: [GridLabelRegions]

    init(_ regions: [GridLabelRegions]) {
        self.regions = regions
    }

    /// Grid `index`'s labels whose boxes touch `rect`, less those an earlier grid's kept
    /// labels overlap, in drawing order.
    func kept(_ index: Int, touching rect: Rect) -> [GridLabelCandidate] {
        // The first grid's labels give way to none: no copy filtered by nothing.
        guard index > 0 else { return regions[index].labels(touching: rect) }
        return regions[index].labels(touching: rect).filter { label in
            !(0..<index).contains { earlier in
                kept(earlier, touching: label.box).contains { $0.box.overlaps(label.box) }
            }
        }
    }

    /// What a block of tiles covering `rect` draws, grid by grid: the labels near it too, since
    /// glyphs (their anti-aliasing) may reach a little past a label's box.
    func drawn(near rect: Rect) -> [[GridLabelCandidate]] {
        regions.indices.map { kept($0, touching: rect.expanded(by: regions[$0].reach)) }
    }

    /// Map labels keep clear of the grids whose labels go first (`labelPriority` `grid`).
    ///
    /// The first grid's boxes come from its regions without its labels: no label is copied or
    /// sorted for a search (a block of map labels) that only tests boxes.
    func boxes(touching rect: Rect) -> [Rect] {
        regions.indices.filter { regions[$0].settings.labelPriority == .grid }.flatMap {
            $0 == 0 ? regions[0].boxes(touching: rect) : kept($0, touching: rect).map(\.box)
        }
    }

    /// The same choice in a single image, whose grids placed their labels for it alone.
    static func kept(_ grids: [[GridLabelCandidate]]) -> [[GridLabelCandidate]] {
        var earlier: [GridLabelCandidate] = []
        return grids.map { labels in
            let kept = labels.filter { label in !earlier.contains { $0.box.overlaps(label.box) } }
            earlier += kept
            return kept
        }
    }
}
