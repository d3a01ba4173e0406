import Geodesy
import Raster

extension Support {
    /// The red-weighted centroids (pixels) of the red marks inside the map frame (page
    /// millimetres) of a sheet rendered at `dpi`: marks more than 40 pixels apart are told
    /// apart (the legend's red swatch lies outside the frame).
    static func redMarks(_ image: Image, in frame: Rect, dpi: Double) -> [PlanePoint] {
        let px = dpi / 25.4
        var blobs: [(x: Double, y: Double, w: Double)] = []
        for y in Int(frame.minY * px)..<Int(frame.maxY * px) {
            for x in Int(frame.minX * px)..<Int(frame.maxX * px) {
                let p = image[x, y]
                let red = (Double(p.r) - Double(p.g)) / 255
                guard red > 0.05 else { continue }
                if let i = blobs.firstIndex(where: {
                    abs($0.x / $0.w - Double(x)) < 40 && abs($0.y / $0.w - Double(y)) < 40
                }) {
                    blobs[i] = (
                        blobs[i].x + red * (Double(x) + 0.5), blobs[i].y + red * (Double(y) + 0.5), blobs[i].w + red
                    )
                } else {
                    blobs.append((red * (Double(x) + 0.5), red * (Double(y) + 0.5), red))
                }
            }
        }
        return blobs.map { PlanePoint(x: $0.x / $0.w, y: $0.y / $0.w) }
    }
}
