import Foundation
import MapModel

/// Shape markers drawn once into a small image per style and sub-pixel phase, then
/// composited wherever the style is used. Filling and outlining a Cairo path for each of
/// 300,000 places was a quarter of a render; compositing a few pixels is far cheaper.
/// One per `ImageLibrary` (per renderer, per worker thread).
///
/// The same pixels as the path, but for rounding: a marker's centre is snapped to the nearest
/// `1 / phases` of a pixel (at most 1/64 px away) and its fill and outline are composited
/// together rather than one after the other. (Eighths of a pixel were visible to the golden
/// tests at the edges of small markers, a colour step of up to 25 in 255.) Only where that holds (`CairoContext.pixelOffset`:
/// an image, user space in whole device pixels, normal compositing) and for unturned markers
/// small enough to be worth it; anything else is drawn as a path.
final class MarkerStamps {
    /// Sub-pixel positions per pixel, on each axis.
    static let phases = 32
    /// Markers wider or taller than this many pixels are drawn as paths.
    static let maxSide = 48
    /// Past this many pixels kept (4 bytes each), the cache starts afresh: a 10 px marker
    /// with all its phases is 150,000 pixels.
    static let pixelBudget = 1 << 20

    private struct Key: Hashable {
        var shape: MarkerShape
        var width: Double
        var height: Double
        var fill: Color
        var opacity: Double
        var outlineColor: Color?
        var outlineWidth: Double
        var join: LineJoin?
        var phaseX: Int
        var phaseY: Int
    }

    private var stamps: [Key: (stamp: CairoPixelStamp, margin: Int)?] = [:]
    private var pixelsKept = 0
    /// Stamps drawn so far (for tests: each is made once while kept).
    private(set) var made = 0

    /// Draws `marker` centred on (x, y) of the context's user space from a stamp; false when
    /// it cannot be (the caller draws the path).
    func draw(_ marker: MarkerDrawing, x: Double, y: Double, into context: CairoContext) -> Bool {
        guard marker.icon == nil, marker.rotation == 0, let offset = context.pixelOffset else { return false }
        let deviceX = x + offset.x
        let deviceY = y + offset.y
        guard abs(deviceX) < 1e9, abs(deviceY) < 1e9 else { return false }
        let (column, phaseX) = Self.snap(deviceX)
        let (row, phaseY) = Self.snap(deviceY)
        let key = Key(
            shape: marker.shape, width: marker.width, height: marker.height, fill: marker.fill,
            opacity: marker.opacity, outlineColor: marker.outline?.color, outlineWidth: marker.outline?.width ?? 0,
            join: marker.outline?.join, phaseX: phaseX, phaseY: phaseY)
        let made: (stamp: CairoPixelStamp, margin: Int)?
        if let known = stamps[key] {
            made = known
        } else {
            made = make(marker, key)
            stamps[key] = made
        }
        guard let (stamp, margin) = made else { return false }
        stamp.composite(
            into: context, x: Double(column - margin) - offset.x, y: Double(row - margin) - offset.y)
        return true
    }

    /// The whole pixel and the phase (0..<phases) nearest to a device coordinate.
    static func snap(_ device: Double) -> (Int, Int) {
        let steps = Int((device * Double(phases)).rounded())
        let whole = steps >= 0 ? steps / phases : -((-steps + phases - 1) / phases)
        return (whole, steps - whole * phases)
    }

    /// The stamp of one key, the marker centred `margin` pixels plus its phase from the
    /// stamp's top-left corner; nil when the marker is too large for one.
    private func make(_ marker: MarkerDrawing, _ key: Key) -> (stamp: CairoPixelStamp, margin: Int)? {
        let half = marker.halfExtent
        let margin = Int(max(half.x, half.y).rounded(.up)) + 1
        let side = 2 * margin + 1
        guard side <= Self.maxSide, let surface = try? CairoSurface.image(width: side, height: side) else {
            return nil
        }
        if pixelsKept + side * side > Self.pixelBudget {
            stamps.removeAll(keepingCapacity: true)
            pixelsKept = 0
        }
        pixelsKept += side * side
        made += 1
        let context = CairoContext(surface)
        context.setEvenOddFill()
        let centreX = Double(margin) + Double(key.phaseX) / Double(Self.phases)
        let centreY = Double(margin) + Double(key.phaseY) / Double(Self.phases)
        MarkerPainter.drawShape(marker, x: centreX, y: centreY, into: context)
        return (CairoPixelStamp(surface, width: side, height: side), margin)
    }
}
