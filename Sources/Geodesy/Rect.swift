/// An axis-aligned rectangle in a plane: projected metres, global pixels, paper millimetres.
/// One type for every module: feature bounds, views, grid areas, clipping, page layout.
///
/// Two rectangles that touch along an edge intersect but do not overlap: culling asks
/// whether a rectangle intersects (what touches a region is drawn with it, and edges are
/// closed everywhere else too: `contains` counts its edges), collisions ask whether it
/// overlaps (labels or page boxes that merely touch do not collide).
public struct Rect: Sendable, Equatable, Hashable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The rectangle with its min corner at (x, y) and the given size: on a page, where y
    /// grows down, (x, y) is its top-left corner.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    /// The empty rectangle: unions start from it.
    public static let empty = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// Empty when it holds no point (NaN bounds count as empty).
    public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var centerX: Double { (minX + maxX) / 2 }
    public var centerY: Double { (minY + maxY) / 2 }
    public var center: PlanePoint { PlanePoint(x: centerX, y: centerY) }

    /// Whether the rectangles share a point: edges that touch count.
    public func intersects(_ other: Rect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// Whether the rectangles share some area: edges that merely touch do not count.
    public func overlaps(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    public func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }

    public func contains(_ p: PlanePoint) -> Bool { contains(x: p.x, y: p.y) }

    /// Whether `other` lies within this rectangle (its edges may lie on this one's).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The four corners, (minX, minY) first, round the rectangle: a closed outline
    /// (clockwise on a page, where y grows down).
    public var corners: [PlanePoint] {
        [
            PlanePoint(x: minX, y: minY), PlanePoint(x: maxX, y: minY), PlanePoint(x: maxX, y: maxY),
            PlanePoint(x: minX, y: maxY),
        ]
    }

    public func intersection(_ other: Rect) -> Rect {
        Rect(
            minX: Swift.max(minX, other.minX), minY: Swift.max(minY, other.minY),
            maxX: Swift.min(maxX, other.maxX), maxY: Swift.min(maxY, other.maxY))
    }

    public func including(_ p: PlanePoint) -> Rect {
        var grown = self
        grown.include(x: p.x, y: p.y)
        return grown
    }

    public func expanded(by margin: Double) -> Rect {
        Rect(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    public func union(_ other: Rect) -> Rect {
        Rect(
            minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
            maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    /// Points along the edges, `steps` intervals a side (corners included, some twice): a
    /// rectangle's image under a projection is bounded by walking them, since its edges are
    /// curves there.
    public func edgePoints(steps: Int) -> [PlanePoint] {
        var points: [PlanePoint] = []
        points.reserveCapacity(4 * (steps + 1))
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            let x = minX + width * t
            let y = minY + height * t
            points += [
                PlanePoint(x: x, y: minY), PlanePoint(x: x, y: maxY), PlanePoint(x: minX, y: y),
                PlanePoint(x: maxX, y: y),
            ]
        }
        return points
    }

    /// The bounds of the edges' image under `map`, walked in `steps` intervals a side.
    public func boundsOfEdges(steps: Int, under map: (PlanePoint) -> PlanePoint) -> Rect {
        edgePoints(steps: steps).reduce(Rect.empty) { $0.including(map($1)) }
    }

    public mutating func include(x: Double, y: Double) {
        minX = Swift.min(minX, x)
        minY = Swift.min(minY, y)
        maxX = Swift.max(maxX, x)
        maxY = Swift.max(maxY, y)
    }
}
