import Geodesy
import MapModel

/// Geometry generalised for one resolution: lines and rings simplified (Douglas-Peucker) to a
/// fraction of a pixel, polygons and holes smaller than a pixel dropped. A feature's result
/// depends only on the feature and the resolution, never on the view asking, so neighbouring
/// tiles, a single image and a sheet at the same resolution draw the same simplified geometry
/// (no seams).
///
/// Topology is kept within each geometry: a shortcut that would make a ring touch or cross
/// itself or another ring of the same geometry (a hole, another polygon of a multipolygon) is
/// split at its farthest vertex again, until no such crossing is left, so that a valid polygon
/// stays valid. Crossings between features are not looked for (as GEOS's topology-preserving
/// simplifier, which works on one geometry).
struct Generaliser {
    /// Projected metres (Web Mercator) per pixel.
    let pixel: Double

    /// How far (in pixels) a simplified line may stray from the original: below what
    /// anti-aliasing shows (half a pixel already shows as facets on a thick smooth curve).
    static let pixelTolerance = 0.25
    /// Rounds of splitting shortcuts that cross before the rings still crossing are kept whole.
    static let repairRounds = 16

    var tolerance: Double { pixel * Generaliser.pixelTolerance }

    /// The feature as drawn at this resolution; nil when nothing of it is a pixel large.
    func generalise(_ feature: Feature) -> Feature? {
        var geometries: [Geometry] = []
        var changed = false
        for geometry in feature.geometries {
            guard let simplified = generalise(geometry) else {
                changed = true
                continue
            }
            if simplified.vertexCount != geometry.vertexCount || simplified.partCount != geometry.partCount {
                changed = true
            }
            geometries.append(simplified)
        }
        guard changed else { return feature }
        guard !geometries.isEmpty || feature.geometries.isEmpty else { return nil }
        return Feature(index: feature.index, geometries: geometries, properties: feature.properties)
    }

    /// The geometry at this resolution, nil when it is a polygon smaller than a pixel.
    func generalise(_ geometry: Geometry) -> Geometry? {
        switch geometry.kind {
        case .point: return geometry
        case .line: return simplifiedLines(geometry)
        case .polygon: return simplifiedPolygons(geometry)
        }
    }

    /// Each part simplified on its own; the kept vertices are copied straight into the result,
    /// with one scratch for all parts (no list of kept positions per part).
    private func simplifiedLines(_ geometry: Geometry) -> Geometry {
        guard geometry.vertexCount > 2 * geometry.partCount else { return geometry }
        var scratch = LineSimplifier.Scratch()
        var coordinates: [Double] = []
        var partStarts = [0]
        partStarts.reserveCapacity(geometry.partStarts.count)
        geometry.coordinates.withUnsafeBufferPointer { all in
            for part in 0..<geometry.partCount {
                let range = geometry.partRange(part)
                let run = LineSimplifier(coordinates: all, start: range.lowerBound, end: range.upperBound)
                run.mark(tolerance: tolerance, ring: false, &scratch)
                if geometry.partCount == 1 {
                    // Most lines are one part: their kept vertices, counted, fill an array of
                    // the final size without growing it.
                    coordinates.reserveCapacity(2 * scratch.keep.reduce(0) { $1 ? $0 + 1 : $0 })
                }
                for i in 0..<run.count where scratch.keep[i] {
                    coordinates.append(run.x(i))
                    coordinates.append(run.y(i))
                }
                partStarts.append(coordinates.count / 2)
            }
        }
        return Geometry(kind: geometry.kind, coordinates: coordinates, partStarts: partStarts)
    }

    private func simplifiedPolygons(_ geometry: Geometry) -> Geometry? {
        // Rings smaller than a pixel go: an exterior with its holes, a hole alone.
        var parts: [Int] = []
        var polygonStarts: [Int] = []
        for polygon in 0..<geometry.polygonCount {
            let rings = geometry.ringRange(ofPolygon: polygon)
            guard !rings.isEmpty, isVisible(geometry, part: rings.lowerBound) else { continue }
            polygonStarts.append(parts.count)
            parts.append(contentsOf: rings.filter { isVisible(geometry, part: $0) })
        }
        guard !parts.isEmpty else { return nil }
        polygonStarts.append(parts.count)
        let kept = geometry.coordinates.withUnsafeBufferPointer { coordinates in
            let simplifiers = parts.map { part in
                let range = geometry.partRange(part)
                return LineSimplifier(coordinates: coordinates, start: range.lowerBound, end: range.upperBound)
            }
            var kept = simplifiers.map { $0.simplify(tolerance: tolerance, ring: true) }
            repairCrossings(simplifiers, &kept)
            return kept
        }
        return rebuilt(geometry, parts: parts, kept: kept, polygonStarts: polygonStarts)
    }

    /// Whether a ring's bounds reach a pixel in either direction.
    private func isVisible(_ geometry: Geometry, part: Int) -> Bool {
        let range = geometry.partRange(part)
        guard !range.isEmpty else { return false }
        var box = Rect.empty
        for v in range { box.include(x: geometry.x(v), y: geometry.y(v)) }
        return box.width >= pixel || box.height >= pixel
    }

    /// Splits the shortcuts that touch another segment at their farthest vertex, round after
    /// round; after `repairRounds` the rings still crossing keep all their vertices (the
    /// original rings do not cross, so that ends it).
    private func repairCrossings(_ simplifiers: [LineSimplifier], _ kept: inout [[Int]]) {
        var round = 0
        while true {
            var segments: [SegmentCrossings.Segment] = []
            var origin: [(ring: Int, position: Int)] = []
            var anySimplified = false
            for (ring, positions) in kept.enumerated() {
                let simplifier = simplifiers[ring]
                if positions.count < simplifier.count { anySimplified = true }
                let closed =
                    simplifier.x(0) == simplifier.x(simplifier.count - 1)
                    && simplifier.y(0) == simplifier.y(simplifier.count - 1)
                // An unclosed ring is drawn closed: its closing segment counts too.
                var ends = zip(positions, positions.dropFirst()).map { ($0, $1) }
                if !closed, positions.count > 2 { ends.append((positions[positions.count - 1], positions[0])) }
                for (position, (a, b)) in ends.enumerated() {
                    segments.append(
                        SegmentCrossings.Segment(
                            x0: simplifier.x(a), y0: simplifier.y(a), x1: simplifier.x(b), y1: simplifier.y(b),
                            ring: ring, position: position, ringLength: ends.count))
                    origin.append((ring, position))
                }
            }
            guard anySimplified else { return }
            var conflicts = SegmentCrossings.conflicts(segments)
            if kept.count > 1 { conflicts.formUnion(swallowing(simplifiers, kept, segments)) }
            // Shortcuts only: a segment of the original data cannot be split further.
            var splits: [Int: [Int]] = [:]
            for segment in conflicts {
                let (ring, position) = origin[segment]
                let positions = kept[ring]
                let a = positions[position]
                let b = position + 1 < positions.count ? positions[position + 1] : positions[0]
                guard b > a + 1 else { continue }
                splits[ring, default: []].append(simplifiers[ring].farthest(a, b).index)
            }
            guard !splits.isEmpty else { return }
            round += 1
            for (ring, added) in splits {
                kept[ring] =
                    round < Generaliser.repairRounds
                    ? Array(Set(kept[ring] + added)).sorted() : Array(0..<simplifiers[ring].count)
            }
        }
    }

    /// The shortcuts (indices into `segments`) whose swept area, between the shortcut and the
    /// vertices it drops, holds the first vertex of another ring. Without crossings, a ring
    /// changes sides of another (a hole left outside its shell, an island swallowed by a
    /// neighbour's closed bay) only when such an area holds it; the first vertex is always kept.
    private func swallowing(_ simplifiers: [LineSimplifier], _ kept: [[Int]], _ segments: [SegmentCrossings.Segment])
        -> Set<Int>
    {
        var shortcuts: [Int] = []
        var boxes: [Rect] = []
        var first = 0
        for (ring, positions) in kept.enumerated() {
            let simplifier = simplifiers[ring]
            for (position, (a, b)) in zip(positions, positions.dropFirst()).enumerated() where b > a + 1 {
                var box = Rect.empty
                for v in a...b { box.include(x: simplifier.x(v), y: simplifier.y(v)) }
                shortcuts.append(first + position)
                boxes.append(box)
            }
            first += segments[first...].prefix { $0.ring == ring }.count
        }
        guard !shortcuts.isEmpty else { return [] }
        let index = SpatialIndex(boxes)
        var found: Set<Int> = []
        for (ring, simplifier) in simplifiers.enumerated() {
            let x = simplifier.x(0)
            let y = simplifier.y(0)
            for hit in index.search(Rect(minX: x, minY: y, maxX: x, maxY: y)) {
                let segment = segments[shortcuts[hit]]
                guard segment.ring != ring else { continue }
                let positions = kept[segment.ring]
                let a = positions[segment.position]
                let b = positions[segment.position + 1]
                if simplifiers[segment.ring].chainEncloses(x: x, y: y, from: a, to: b) { found.insert(shortcuts[hit]) }
            }
        }
        return found
    }

    /// The geometry made of the kept vertices of `parts`.
    private func rebuilt(_ geometry: Geometry, parts: [Int], kept: [[Int]], polygonStarts: [Int]) -> Geometry {
        var coordinates: [Double] = []
        coordinates.reserveCapacity(2 * kept.reduce(0) { $0 + $1.count })
        var partStarts = [0]
        for (part, positions) in zip(parts, kept) {
            let first = geometry.partStarts[part]
            for p in positions {
                coordinates.append(geometry.x(first + p))
                coordinates.append(geometry.y(first + p))
            }
            partStarts.append(coordinates.count / 2)
        }
        return Geometry(
            kind: geometry.kind, coordinates: coordinates, partStarts: partStarts, polygonStarts: polygonStarts)
    }
}
