/// Finds which segments of a set of rings touch or cross a segment other than their
/// neighbours in the same ring: what would make a simplified polygon self-intersecting.
///
/// Segments are hashed into a uniform grid whose cell is about the mean segment length, each
/// into the cells it passes through (not its whole bounding box, which a long diagonal
/// shortcut would make huge), and only segments sharing a cell are compared: near-linear work
/// for the rings a simplification produces.
struct SegmentCrossings {
    struct Segment {
        var x0: Double
        var y0: Double
        var x1: Double
        var y1: Double
        /// The ring, and the segment's place in it among `ringLength` segments.
        var ring: Int
        var position: Int
        var ringLength: Int
    }

    /// The indices (into `segments`) of every segment that touches a non-neighbouring one.
    static func conflicts(_ segments: [Segment]) -> Set<Int> {
        guard segments.count > 2 else { return [] }
        var bounds = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        var length = 0.0
        for s in segments {
            bounds.minX = min(bounds.minX, s.x0, s.x1)
            bounds.minY = min(bounds.minY, s.y0, s.y1)
            bounds.maxX = max(bounds.maxX, s.x0, s.x1)
            bounds.maxY = max(bounds.maxY, s.y0, s.y1)
            length += abs(s.x1 - s.x0) + abs(s.y1 - s.y0)
        }
        let extent = max(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY)
        guard extent > 0, extent.isFinite else { return [] }
        // At most 2^16 cells a side, so that a cell's key fits and a degenerate set stays cheap.
        let cell = max(length / Double(segments.count), extent / 65_536)
        var entries: [(key: UInt64, segment: Int32)] = []
        entries.reserveCapacity(segments.count * 3)
        for (index, s) in segments.enumerated() {
            let c0 = column(min(s.x0, s.x1), bounds.minX, cell)
            let c1 = column(max(s.x0, s.x1), bounds.minX, cell)
            for c in c0...c1 {
                // The part of the segment within this column, then the rows it spans there.
                let left = bounds.minX + Double(c) * cell
                var ya = s.y0
                var yb = s.y1
                if s.x1 != s.x0, c0 != c1 {
                    let xa = max(min(s.x0, s.x1), left)
                    let xb = min(max(s.x0, s.x1), left + cell)
                    ya = s.y0 + (xa - s.x0) / (s.x1 - s.x0) * (s.y1 - s.y0)
                    yb = s.y0 + (xb - s.x0) / (s.x1 - s.x0) * (s.y1 - s.y0)
                }
                // One row more either way: the column's edges are computed, not exact.
                let r0 = max(0, column(min(ya, yb), bounds.minY, cell) - 1)
                let r1 = column(max(ya, yb), bounds.minY, cell) + 1
                for r in r0...r1 { entries.append((UInt64(c) << 32 | UInt64(r), Int32(index))) }
            }
        }
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.segment < $1.segment }
        var found: Set<Int> = []
        var first = 0
        while first < entries.count {
            var last = first
            while last + 1 < entries.count, entries[last + 1].key == entries[first].key { last += 1 }
            if last > first {
                for i in first..<last {
                    let a = Int(entries[i].segment)
                    for j in (i + 1)...last {
                        let b = Int(entries[j].segment)
                        if !neighbours(segments[a], segments[b]), touch(segments[a], segments[b]) {
                            found.insert(a)
                            found.insert(b)
                        }
                    }
                }
            }
            first = last + 1
        }
        return found
    }

    private static func column(_ v: Double, _ origin: Double, _ cell: Double) -> Int {
        Int(((v - origin) / cell).rounded(.down))
    }

    /// Consecutive segments of one ring (the last and the first too) share a vertex by design.
    static func neighbours(_ a: Segment, _ b: Segment) -> Bool {
        guard a.ring == b.ring else { return false }
        let gap = abs(a.position - b.position)
        return gap <= 1 || gap == a.ringLength - 1
    }

    /// Whether two closed segments have a point in common.
    static func touch(_ a: Segment, _ b: Segment) -> Bool {
        guard max(a.x0, a.x1) >= min(b.x0, b.x1), max(b.x0, b.x1) >= min(a.x0, a.x1),
            max(a.y0, a.y1) >= min(b.y0, b.y1), max(b.y0, b.y1) >= min(a.y0, a.y1)
        else { return false }
        let d1 = side(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0)
        let d2 = side(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1)
        let d3 = side(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0)
        let d4 = side(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1)
        // Bounding boxes overlap: collinear segments (all four zero) share a point.
        return d1 * d2 <= 0 && d3 * d4 <= 0
    }

    /// The sign of the turn from a-b to a-c.
    private static func side(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double)
        -> Double
    {
        let cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        return cross > 0 ? 1 : cross < 0 ? -1 : 0
    }
}
