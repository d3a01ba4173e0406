import Geodesy
import MapModel
import Render

/// The map frame on the page and the rectangle of the sheet's plane it shows: converts
/// between page millimetres (y down) and plane metres (y north). Built from the map view's
/// own extent, so what is drawn over the map lines up with the map to floating-point accuracy.
public struct FrameTransform: Sendable, Equatable {
    public let frame: Rect
    public let extent: Rect
    /// Plane metres to page millimetres: the extent's top-left corner on the frame's.
    let toPage: PlaneTransform

    public init(frame: Rect, extent: Rect) {
        self.frame = frame
        self.extent = extent
        toPage = PlaneTransform(
            origin: PlanePoint(x: extent.minX, y: extent.maxY), metresPerUnit: extent.width / frame.width,
            offset: PlanePoint(x: -frame.minX, y: -frame.minY))
    }

    /// Plane metres per page millimetre (the scale denominator / 1000).
    public var metresPerMillimetre: Double { toPage.metresPerUnit }

    public func page(_ p: PlanePoint) -> PlanePoint { toPage.image(p) }

    public func plane(_ p: PlanePoint) -> PlanePoint { toPage.plane(image: p) }
}
