import Geodesy
import MapModel
import Render

/// The map frame on the page and the rectangle of the sheet's plane it shows: converts
/// between page millimetres (y down) and plane metres (y north). Built from the map view's
/// own extent, so what is drawn over the map lines up with the map to floating-point accuracy.
public struct FrameTransform: Sendable, Equatable {
    public let frame: PageRect
    public let extent: Rect

    public init(frame: PageRect, extent: Rect) {
        self.frame = frame
        self.extent = extent
    }

    /// Plane metres per page millimetre (the scale denominator / 1000).
    public var metresPerMillimetre: Double { extent.width / frame.width }

    public func page(_ x: Double, _ y: Double) -> PagePoint {
        PagePoint(
            frame.x + (x - extent.minX) / extent.width * frame.width,
            frame.y + (extent.maxY - y) / extent.height * frame.height)
    }

    public func plane(_ p: PagePoint) -> (x: Double, y: Double) {
        (
            extent.minX + (p.x - frame.x) / frame.width * extent.width,
            extent.maxY - (p.y - frame.y) / frame.height * extent.height
        )
    }
}
