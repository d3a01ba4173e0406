import Geodesy
import Grids
import MapModel

/// The two families of lines, whose labels thin separately: those that run up the map
/// (meridians, eastings) and those that run across it (parallels, northings).
enum GridLabelFamily: Sendable {
    case x, y
}

/// A grid label measured and placed in global pixels, ready to be kept or dropped.
struct GridLabelCandidate {
    let text: String
    let font: FontSpec
    let color: Color
    let halo: (color: Color, width: Double)?
    /// Top-left corner of the text's logical box, in global pixels.
    var corner: PlanePoint
    /// The text's logical box, global pixels.
    var textBox: Rect
    /// The text's box grown by its halo, and at least by half the gap labels keep between
    /// them: what must stay clear of other labels.
    var box: Rect
    let rank: GridLabelRank
    let anchor: PlanePoint
    /// For a line's value: the family it thins with and the value (degrees or metres).
    var family: GridLabelFamily?
    var value: Double = 0
    /// The UTM zone number of the line (`18` of `18T`), "" for others.
    var zoneNumber = ""
    /// Other corners to try, in order, when this one is taken (single images): a cell's name
    /// moves towards a corner of its part of the view rather than go unnamed.
    var alternatives: [PlanePoint] = []
    /// Turned a quarter anticlockwise, to read bottom to top along a side of the view; its
    /// boxes are the turned text's.
    var turned = false

    /// A total order: rank, then position (two labels of one line at different places).
    func outranks(_ other: GridLabelCandidate) -> Bool {
        if rank != other.rank { return rank < other.rank }
        if anchor.y != other.anchor.y { return anchor.y < other.anchor.y }
        return anchor.x < other.anchor.x
    }

    /// The same label with its text box's top-left corner at `corner`.
    func moved(to corner: PlanePoint) -> GridLabelCandidate {
        var c = self
        let dx = corner.x - self.corner.x
        let dy = corner.y - self.corner.y
        c.corner = corner
        c.textBox = Rect(
            minX: textBox.minX + dx, minY: textBox.minY + dy, maxX: textBox.maxX + dx, maxY: textBox.maxY + dy)
        c.box = Rect(minX: box.minX + dx, minY: box.minY + dy, maxX: box.maxX + dx, maxY: box.maxY + dy)
        c.alternatives = []
        return c
    }
}

/// Which labels are drawn: none overlaps another.
enum GridLabelPlacer {
    /// Text keeps this far from the image's edges, in pixels.
    static let edgeClearance = 2.0

    /// For a single image or sheet: highest rank first, each kept at its place or the first
    /// of its alternatives that overlaps no kept label and keeps its text clear of the edges.
    static func placeGreedy(_ candidates: [GridLabelCandidate], within bounds: Rect) -> [GridLabelCandidate] {
        let inside = bounds.expanded(by: -edgeClearance)
        var placed: [GridLabelCandidate] = []
        for c in candidates.sorted(by: { $0.outranks($1) }) {
            for option in [c] + c.alternatives.map({ c.moved(to: $0) }) {
                guard option.textBox.minX >= inside.minX, option.textBox.minY >= inside.minY,
                    option.textBox.maxX <= inside.maxX, option.textBox.maxY <= inside.maxY
                else { continue }
                if placed.contains(where: { $0.box.overlaps(option.box) }) { continue }
                placed.append(option)
                break
            }
        }
        return placed
    }

    /// For tiles: a label is kept unless a label that outranks it overlaps it. The answer only
    /// needs the labels within one label's reach, which every view that shows the label has
    /// generated, so tiles agree across their edges. (It drops a little more than the greedy
    /// rule; ranks favour round values, so crowded labels thin out to every 2nd, 4th... line.)
    ///
    /// Indices are sorted, not the labels: moving a label (its text, font and alternatives)
    /// cost more than comparing it, and sorting indices by the same predicate gives the same
    /// order.
    ///
    /// The labels looked at for one start at the first that can reach it (none ends further
    /// from its start than the widest box), not at the leftmost: a view many regions wide
    /// (`GridLabelRegions` works them out a block at a time) has thousands of labels.
    ///
    /// The boxes are read from an array of their own, and a pair's overlap is tested before
    /// its ranks: the sweep reads boxes again and again, each among a label's few hundred
    /// bytes of text, font and colours, and most pairs it looks at do not overlap.
    static func placeLocally(_ candidates: [GridLabelCandidate]) -> [GridLabelCandidate] {
        let boxes = candidates.map(\.box)
        let sorted = boxes.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        // A pixel more than the widest box, so that rounding cannot skip a label that overlaps.
        let reach = (boxes.lazy.map(\.width).max() ?? 0) + 1
        var kept: [Int] = []
        kept.reserveCapacity(sorted.count)
        var first = 0
        for (i, c) in sorted.enumerated() {
            let box = boxes[c]
            var blocked = false
            // Boxes starting a reach or more left of this one end before it.
            while first < i, boxes[sorted[first]].minX + reach < box.minX { first += 1 }
            // Only labels starting left of this one's right edge can overlap it.
            var j = first
            while j < sorted.count, boxes[sorted[j]].minX < box.maxX {
                let other = sorted[j]
                if j != i, boxes[other].overlaps(box), candidates[other].outranks(candidates[c]) {
                    blocked = true
                    break
                }
                j += 1
            }
            if !blocked { kept.append(c) }
        }
        return kept.sorted { candidates[$0].outranks(candidates[$1]) }.map { candidates[$0] }
    }

    /// Line labels thinned to every n-th line of their family (see `GridLabelStride`):
    /// in a single image the finest stride at which the family's labels clear one another;
    /// in tiles the stride at which labels of `extents` (per family, pixels) clear lines as
    /// close as they come at this resolution (`pixelsPerUnit`).
    static func thinned(
        _ candidates: [GridLabelCandidate], spacing: (x: GridSpacing, y: GridSpacing)?,
        tiles: (extents: (x: Double, y: Double), pixelsPerUnit: Double)?
    ) -> [GridLabelCandidate] {
        guard let spacing else { return candidates }
        var stride: [GridLabelFamily: Double] = [:]
        for (family, s) in [(GridLabelFamily.x, spacing.x), (.y, spacing.y)] {
            if let tiles {
                let extent = family == .x ? tiles.extents.x : tiles.extents.y
                stride[family] = GridLabelStride.stride(extent: extent, pixelsPerUnit: tiles.pixelsPerUnit, spacing: s)
            } else {
                stride[family] = GridLabelStride.stride(of: candidates.filter { $0.family == family }, spacing: s)
            }
        }
        func keeps(_ c: GridLabelCandidate) -> Bool {
            guard let family = c.family, let n = stride[family] else { return true }
            return GridLabelStride.keeps(c.value, stride: n, spacing: family == .x ? spacing.x : spacing.y)
        }
        // Tiles mostly keep every line's label: then the candidates are not copied.
        guard let first = candidates.firstIndex(where: { !keeps($0) }) else { return candidates }
        var kept = Array(candidates[..<first])
        kept.reserveCapacity(candidates.count - 1)
        for c in candidates[(first + 1)...] where keeps(c) { kept.append(c) }
        return kept
    }
}
