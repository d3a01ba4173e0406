import Geodesy

/// A static packed R-tree over rectangles: items sorted along a Hilbert curve, grouped 16 to a
/// node, bottom up. Built once per source; queries visit only nodes that touch the query, so a
/// small view of a large source touches only the features it shows.
public struct SpatialIndex: Sendable {
    private static let nodeSize = 16

    /// All boxes: first the items (in Hilbert order), then each level of nodes above them.
    private let boxes: [Rect]
    /// For item boxes, the item's original index; for node boxes, the first child's box index.
    private let links: [Int]
    /// Start of each level in `boxes`; the last level holds the single root.
    private let levelStarts: [Int]
    public let count: Int

    public init(_ items: [Rect]) {
        count = items.count
        guard !items.isEmpty else {
            boxes = []
            links = []
            levelStarts = [0]
            return
        }
        let extent = items.reduce(Rect.empty) { $0.union($1) }
        let order = items.indices.sorted { a, b in
            let ha = SpatialIndex.hilbertKey(items[a], extent)
            let hb = SpatialIndex.hilbertKey(items[b], extent)
            return ha != hb ? ha < hb : a < b
        }
        var boxes = order.map { items[$0] }
        var links = order
        var levelStarts = [0]
        var levelStart = 0
        var levelCount = items.count
        while levelCount > 1 {
            let next = boxes.count
            levelStarts.append(next)
            var i = levelStart
            while i < levelStart + levelCount {
                let end = min(i + SpatialIndex.nodeSize, levelStart + levelCount)
                var box = Rect.empty
                for j in i..<end { box = box.union(boxes[j]) }
                boxes.append(box)
                links.append(i)
                i = end
            }
            levelStart = next
            levelCount = boxes.count - next
        }
        self.boxes = boxes
        self.links = links
        self.levelStarts = levelStarts
    }

    /// Original indices of the items whose rectangles intersect `query`, in ascending order
    /// (the file's order, which is the drawing order).
    public func search(_ query: Rect) -> [Int] {
        guard count > 0 else { return [] }
        var result: [Int] = []
        // Stack of (box index, level).
        var stack: [(Int, Int)] = [(boxes.count - 1, levelStarts.count - 1)]
        while let (box, level) = stack.popLast() {
            guard boxes[box].intersects(query) else { continue }
            if level == 0 {
                result.append(links[box])
                continue
            }
            let first = links[box]
            // Children live in the level below, which ends where this node's level starts.
            let end = min(first + SpatialIndex.nodeSize, levelStarts[level])
            for child in first..<end { stack.append((child, level - 1)) }
        }
        result.sort()
        return result
    }

    /// Position of the box centre on a Hilbert curve of order 16 over the extent.
    private static func hilbertKey(_ box: Rect, _ extent: Rect) -> UInt32 {
        guard !box.isEmpty else { return 0 }
        let n: Double = 65535
        let x = extent.width > 0 ? UInt32(((box.centerX - extent.minX) / extent.width * n).rounded(.down)) : 0
        let y = extent.height > 0 ? UInt32(((box.centerY - extent.minY) / extent.height * n).rounded(.down)) : 0
        return hilbert(x: x, y: y)
    }

    /// Hilbert curve index of (x, y) on a 2^16 grid, by the classic rotate-and-flip walk.
    private static func hilbert(x xIn: UInt32, y yIn: UInt32) -> UInt32 {
        var x = xIn
        var y = yIn
        var d: UInt32 = 0
        var s: UInt32 = 1 << 15
        while s > 0 {
            let rx: UInt32 = (x & s) > 0 ? 1 : 0
            let ry: UInt32 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = 65535 &- x
                    y = 65535 &- y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
