/// Douglas-Peucker over one run of vertices (a line or a ring): which vertices to keep so that
/// no dropped vertex lies farther than the tolerance from the kept polyline. The result is a
/// sorted list of vertex positions within the run; `split` refines one kept segment (used when
/// a shortcut would cross another ring), so the list can only grow back towards the original.
struct LineSimplifier {
    /// Interleaved x, y of the whole geometry.
    let coordinates: UnsafeBufferPointer<Double>
    /// The run: vertices `start ..< end` of the geometry.
    let start: Int
    let end: Int

    var count: Int { end - start }

    /// The kept positions (0-based within the run), first and last always among them. A ring
    /// keeps at least four vertices when it has them (a closed triangle), so it never
    /// collapses to a line: the vertex farthest from the first, and in each half the one
    /// farthest from the chord, are kept whatever the tolerance.
    func simplify(tolerance: Double, ring: Bool) -> [Int] {
        var scratch = Scratch()
        mark(tolerance: tolerance, ring: ring, &scratch)
        return (0..<count).filter { scratch.keep[$0] }
    }

    /// Buffers `mark` reuses from one run to the next: the runs of a geometry (thousands of
    /// shoreline pieces a view) are simplified without new arrays for each.
    struct Scratch {
        /// Whether each position of the last run is kept.
        var keep: [Bool] = []
        fileprivate var stack: [(Int, Int)] = []
    }

    /// `simplify` into `scratch.keep[0 ..< count]`.
    func mark(tolerance: Double, ring: Bool, _ scratch: inout Scratch) {
        let n = count
        scratch.keep.removeAll(keepingCapacity: true)
        scratch.keep.append(contentsOf: repeatElement(n <= 2, count: n))
        guard n > 2 else { return }
        scratch.keep[0] = true
        scratch.keep[n - 1] = true
        let squared = tolerance * tolerance
        scratch.stack.removeAll(keepingCapacity: true)
        if ring {
            let far = farthest(0, n - 1).index
            scratch.keep[far] = true
            for (a, b) in [(0, far), (far, n - 1)] where b - a > 1 {
                let middle = farthest(a, b).index
                scratch.keep[middle] = true
                scratch.stack.append((a, middle))
                scratch.stack.append((middle, b))
            }
        } else {
            scratch.stack.append((0, n - 1))
        }
        while let (a, b) = scratch.stack.popLast() {
            guard b - a > 1 else { continue }
            let (index, distance) = farthest(a, b)
            if distance > squared {
                scratch.keep[index] = true
                scratch.stack.append((a, index))
                scratch.stack.append((index, b))
            }
        }
    }

    /// The vertex strictly between `a` and `b` farthest from segment a-b, and its squared
    /// distance (ties go to the first, so the answer does not depend on anything but the run).
    func farthest(_ a: Int, _ b: Int) -> (index: Int, distance: Double) {
        let ax = x(a)
        let ay = y(a)
        let dx = x(b) - ax
        let dy = y(b) - ay
        let length = dx * dx + dy * dy
        var best = a + 1
        var bestDistance = -1.0
        for i in (a + 1)..<b {
            var px = x(i) - ax
            var py = y(i) - ay
            if length > 0 {
                let t = min(1, max(0, (px * dx + py * dy) / length))
                px -= t * dx
                py -= t * dy
            }
            let d = px * px + py * py
            if d > bestDistance {
                bestDistance = d
                best = i
            }
        }
        return (best, bestDistance)
    }

    /// Whether (x, y) lies inside the polygon of vertices `a ... b`, closed by the segment
    /// from b back to a (even-odd rule): the area a shortcut from a to b sweeps.
    func chainEncloses(x px: Double, y py: Double, from a: Int, to b: Int) -> Bool {
        var inside = false
        var j = b
        for i in a...b {
            let (xi, yi, xj, yj) = (x(i), y(i), x(j), y(j))
            if (yi > py) != (yj > py), px < (xj - xi) * (py - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }

    @inline(__always) func x(_ i: Int) -> Double { coordinates[2 * (start + i)] }
    @inline(__always) func y(_ i: Int) -> Double { coordinates[2 * (start + i) + 1] }
}
