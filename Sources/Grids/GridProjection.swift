import Geodesy

/// An axis-aligned rectangle in a grid's plane (pixels, y down).
public struct GridRect: Hashable, Sendable {
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

    /// The empty rectangle, from which `including` grows bounds.
    public static let empty = GridRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: PlanePoint { PlanePoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

    public func expanded(by margin: Double) -> GridRect {
        GridRect(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    /// Closed intersection (rectangles that touch intersect).
    public func intersects(_ other: GridRect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    public func intersection(_ other: GridRect) -> GridRect {
        GridRect(minX: Swift.max(minX, other.minX), minY: Swift.max(minY, other.minY),
                 maxX: Swift.min(maxX, other.maxX), maxY: Swift.min(maxY, other.maxY))
    }

    public func contains(_ p: PlanePoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    public func including(_ p: PlanePoint) -> GridRect {
        GridRect(minX: Swift.min(minX, p.x), minY: Swift.min(minY, p.y), maxX: Swift.max(maxX, p.x), maxY: Swift.max(maxY, p.y))
    }
}

/// The plane a grid is drawn on: geographic positions to plane coordinates in pixels
/// (x right, y down) and back. Grid generation only ever goes through this, so the same
/// grid can be drawn on a Web Mercator render, a tile or a sheet in another projection.
///
/// For tiles the plane must be global (the same coordinates for a place whatever the view)
/// and `project` a pure function: the grid's vertices are then the same in every view.
public protocol GridProjection: Sendable {
    func project(latitude: Double, longitude: Double) -> PlanePoint
    func unproject(_ point: PlanePoint) -> GeoPosition
    /// Pixels per metre on the ground where the projection is true to scale; decides which
    /// levels are far enough apart to draw.
    var pixelsPerMetre: Double { get }
    /// The latitudes the projection shows; lines stop at these limits.
    var latitudeRange: ClosedRange<Double> { get }
}

/// Web Mercator in global pixels at a resolution: (0, 0) is the world's top-left corner
/// (180°W, 85.0511°N), as in the renderer's views and XYZ tiles.
public struct WebMercatorGridProjection: GridProjection {
    /// Projected metres per pixel.
    public let resolution: Double

    public init(resolution: Double) {
        self.resolution = resolution
    }

    @inline(__always)
    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        let p = WebMercator.forward(latitude: latitude, longitude: longitude)
        return PlanePoint(x: (p.x + WebMercator.halfWorld) / resolution, y: (WebMercator.halfWorld - p.y) / resolution)
    }

    public func unproject(_ point: PlanePoint) -> GeoPosition {
        WebMercator.inverse(x: point.x * resolution - WebMercator.halfWorld, y: WebMercator.halfWorld - point.y * resolution)
    }

    public var pixelsPerMetre: Double { 1 / resolution }

    public var latitudeRange: ClosedRange<Double> { -WebMercator.maxLatitude...WebMercator.maxLatitude }
}
