import Foundation
import Geodesy

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
    /// True for a Mercator plane: parallels spread apart by the secant of their latitude,
    /// so label stops along meridians are spaced in isometric latitude.
    var isMercator: Bool { get }
    /// When `project` depends on one number alone (Web Mercator in global pixels: the
    /// resolution), that number: line vertices are then kept in a `GridCache` under it. Nil:
    /// nothing is kept.
    var chunkCacheScale: Double? { get }
    /// True when `unproject` gives a latitude that depends on y alone and a longitude on x
    /// alone, each monotone (Web Mercator in global pixels): a rectangle's latitude and
    /// longitude bounds are then at its extreme edges (`GeoBox.bounds`).
    var isSeparable: Bool { get }
}

extension GridProjection {
    public var isMercator: Bool { false }
    public var chunkCacheScale: Double? { nil }
    public var isSeparable: Bool { false }

    /// How much farther apart parallels are at a latitude than at the equator.
    func parallelStretch(latitude: Double) -> Double {
        isMercator ? 1 / Swift.max(1e-6, cos(Swift.min(89.999, Swift.abs(latitude)) * .pi / 180)) : 1
    }
}

/// Web Mercator in global pixels at a resolution: (0, 0) is the world's top-left corner
/// (180°W, 85.0511°N), as in the renderer's views and XYZ tiles.
public struct WebMercatorGridProjection: GridProjection {
    /// Projected metres per pixel.
    public let resolution: Double
    let transform: PlaneTransform

    public init(resolution: Double) {
        self.resolution = resolution
        transform = .webMercator(metresPerPixel: resolution)
    }

    @inline(__always)
    public func project(latitude: Double, longitude: Double) -> PlanePoint {
        transform.global(WebMercator.forward(latitude: latitude, longitude: longitude))
    }

    public func unproject(_ point: PlanePoint) -> GeoPosition {
        WebMercator.inverse(transform.plane(global: point))
    }

    public var pixelsPerMetre: Double { 1 / resolution }

    public var latitudeRange: ClosedRange<Double> { -WebMercator.maxLatitude...WebMercator.maxLatitude }

    public var isMercator: Bool { true }

    public var chunkCacheScale: Double? { resolution }

    public var isSeparable: Bool { true }
}
