import Foundation
import MapModel

/// Shaded relief from a grid of elevations, by gdaldem hillshade's formulas (Horn's gradient;
/// the standard and the multidirectional shading), so that a shade matches gdaldem's to a
/// grey level. The grid carries a one-pixel border around the pixels shaded; each row has its
/// own ground spacing, so that in Web Mercator, where a pixel covers `cos(latitude)` times its
/// nominal size on the ground, slopes stay true whatever the latitude.
struct Hillshade {
    let style: RasterStyle.Hillshade

    /// The grey (1...255) and alpha of the `width` x `height` pixels inside the border of
    /// `values` (`width + 2` x `height + 2`); `groundSpacing(row)` gives the metres per pixel of
    /// a row of `values`. A pixel without data is transparent; a missing neighbour counts as
    /// level with the pixel.
    func shade(
        values: [Float], alpha: [UInt8], width: Int, height: Int, groundSpacing: (Int) -> Double
    ) -> (grey: [UInt8], alpha: [UInt8]) {
        let stride = width + 2
        let degrees = Double.pi / 180
        let zFactor = style.zFactor / 8
        let sinAlt = sin(style.altitude * degrees)
        let cosAltZ = cos(style.altitude * degrees) * zFactor
        let azimuth = style.azimuth * degrees
        let cos225 = cos(225 * degrees)
        var grey = [UInt8](repeating: 0, count: width * height)
        var outAlpha = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            let spacing = groundSpacing(row + 1)
            // gdaldem's 1 / (ewres * scale) and 1 / (nsres * scale), nsres negative (north up).
            let inverseEW = 1 / spacing
            let inverseNS = -1 / spacing
            for column in 0..<width {
                let centre = (row + 1) * stride + column + 1
                guard alpha[centre] != 0 else { continue }
                let z = Double(values[centre])
                func at(_ dy: Int, _ dx: Int) -> Double {
                    let i = centre + dy * stride + dx
                    return alpha[i] == 0 ? z : Double(values[i])
                }
                let (a, b, c) = (at(-1, -1), at(-1, 0), at(-1, 1))
                let (d, f) = (at(0, -1), at(0, 1))
                let (g, h, i) = (at(1, -1), at(1, 0), at(1, 1))
                let x = ((a + d + d + g) - (c + f + f + i)) * inverseEW
                let y = ((g + h + h + i) - (a + b + b + c)) * inverseNS
                let xxPlusYY = x * x + y * y
                let value: Double
                if style.multidirectional {
                    if xxPlusYY == 0 {
                        value = 1 + 254 * sinAlt
                    } else {
                        let v225 = max(0, 127 * sinAlt + (x - y) * cos225 * cosAltZ * 127)
                        let v270 = max(0, 127 * sinAlt - x * cosAltZ * 127)
                        let v315 = max(0, 127 * sinAlt + (x + y) * cos225 * cosAltZ * 127)
                        let v360 = max(0, 127 * sinAlt - y * cosAltZ * 127)
                        let w225 = 0.5 * xxPlusYY - x * y
                        let w315 = xxPlusYY - w225
                        let weighted = (w225 * v225 + x * x * v270 + w315 * v315 + y * y * v360) / xxPlusYY
                        value = 1 + weighted / (1 + zFactor * zFactor * xxPlusYY).squareRoot()
                    }
                } else {
                    let shade =
                        (254 * sinAlt - (y * cos(azimuth) * cosAltZ * 254 - x * sin(azimuth) * cosAltZ * 254))
                        / (1 + zFactor * zFactor * xxPlusYY).squareRoot()
                    value = shade <= 0 ? 1 : 1 + shade
                }
                // gdaldem writes its floats into bytes rounding to the nearest.
                let out = row * width + column
                grey[out] = UInt8(max(0, min(255, value + 0.5)))
                outAlpha[out] = alpha[centre]
            }
        }
        return (grey, outAlpha)
    }
}
