import Geodesy
import Grids
import MapModel

/// A grid label measured and placed in global pixels, ready to be kept or dropped.
struct GridLabelCandidate {
    let text: String
    let font: FontSpec
    let color: Color
    let halo: (color: Color, width: Double)?
    /// Top-left corner of the text's logical box, in global pixels.
    let corner: PlanePoint
    /// The text's box grown by the halo: what must stay clear of other labels.
    let box: Rect
    let rank: GridLabelRank
    let anchor: PlanePoint

    /// A total order: rank, then position (two labels of one line at different places).
    func outranks(_ other: GridLabelCandidate) -> Bool {
        if rank != other.rank { return rank < other.rank }
        if anchor.y != other.anchor.y { return anchor.y < other.anchor.y }
        return anchor.x < other.anchor.x
    }
}

/// Which labels are drawn: none overlaps another.
enum GridLabelPlacer {
    /// For a single image or sheet: highest rank first, each kept unless it would overlap a
    /// kept one or reach past the image's edge.
    static func placeGreedy(_ candidates: [GridLabelCandidate], within bounds: Rect) -> [GridLabelCandidate] {
        var placed: [GridLabelCandidate] = []
        for c in candidates.sorted(by: { $0.outranks($1) }) {
            guard c.box.minX >= bounds.minX, c.box.minY >= bounds.minY, c.box.maxX <= bounds.maxX,
                c.box.maxY <= bounds.maxY
            else { continue }
            if placed.contains(where: { $0.box.overlaps(c.box) }) { continue }
            placed.append(c)
        }
        return placed
    }

    /// For tiles: a label is kept unless a label that outranks it overlaps it. The answer only
    /// needs the labels within one label's reach, which every view that shows the label has
    /// generated, so tiles agree across their edges. (It drops a little more than the greedy
    /// rule; ranks favour round values, so crowded labels thin out to every 2nd, 4th... line.)
    static func placeLocally(_ candidates: [GridLabelCandidate]) -> [GridLabelCandidate] {
        let sorted = candidates.sorted { $0.box.minX < $1.box.minX }
        var kept: [GridLabelCandidate] = []
        for (i, c) in sorted.enumerated() {
            var blocked = false
            // Only labels starting left of this one's right edge can overlap it.
            var j = 0
            while j < sorted.count, sorted[j].box.minX < c.box.maxX {
                if j != i, sorted[j].outranks(c), sorted[j].box.overlaps(c.box) {
                    blocked = true
                    break
                }
                j += 1
            }
            if !blocked { kept.append(c) }
        }
        return kept.sorted { $0.outranks($1) }
    }
}
