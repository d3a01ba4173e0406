import Foundation
import Geodesy

/// Web Mercator zoom levels as scale denominators: zoom z is the scale of 256 px XYZ tiles at
/// zoom z drawn with the OGC standard 0.28 mm pixel (zoom 0 is 1:559,082,264.029, as in the
/// OGC WebMercatorQuad matrix set). `minZoom`, `maxZoom` and `["zoom"]` go through the scale
/// denominator, so they mean the same in any plane, with 512 px tiles or at @2x.
public enum ZoomScale {
    /// The scale denominator of zoom 0.
    public static let zoomZeroScale = WebMercator.resolution(zoom: 0) / 0.00028

    public static func scale(zoom: Double) -> Double { zoomZeroScale / pow(2, zoom) }

    /// The zoom of a scale denominator. Within a billionth of a whole zoom it is that whole
    /// zoom, so a tile's zoom compares exactly with the stops and ranges of a style.
    public static func zoom(scale: Double) -> Double {
        let zoom = log2(zoomZeroScale / scale)
        let whole = zoom.rounded()
        return abs(zoom - whole) < 1e-9 ? whole : zoom
    }
}

/// The scales at which a layer or rule draws: at most a lower and an upper bound on the scale
/// denominator. `minScale` draws from that scale up (zoomed out to it or further) and `maxScale`
/// below it; `minZoom` draws from that zoom in (zoom ≥ minZoom) and `maxZoom` below it (zoom <
/// maxZoom), as in MapLibre styles.
public struct ScaleRange: Sendable, Equatable {
    public struct Bound: Sendable, Equatable {
        public var scale: Double
        public var inclusive: Bool
    }

    public var lower: Bound?
    public var upper: Bound?

    public init(lower: Bound? = nil, upper: Bound? = nil) {
        self.lower = lower
        self.upper = upper
    }

    public static let all = ScaleRange()

    /// Whether a view at this scale denominator draws. Scales within a billionth of a bound
    /// count as on it, so a tile exactly at `minZoom` is in.
    public func contains(_ scale: Double) -> Bool {
        if let lower {
            if ScaleRange.same(scale, lower.scale) {
                if !lower.inclusive { return false }
            } else if scale < lower.scale {
                return false
            }
        }
        if let upper {
            if ScaleRange.same(scale, upper.scale) {
                if !upper.inclusive { return false }
            } else if scale > upper.scale {
                return false
            }
        }
        return true
    }

    static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(abs(a), abs(b)) }
}
