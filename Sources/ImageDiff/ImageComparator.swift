import Foundation
import Raster

/// Compares images pixel by pixel with a perceptual colour distance (see YIQ.swift), the
/// way pixelmatch-style visual regression tools do: a pixel differs when the weighted YIQ
/// distance of the two pixels, each blended over white, exceeds `threshold² x` the largest
/// possible distance. Differences that come only from anti-aliasing (AntiAliasing.swift) are
/// reported apart and not counted unless `includeAntiAliased` is set.
public struct ImageComparator: Sendable {
    /// 0 (any change counts) to 1 (nothing counts); 0.1 tolerates small colour shifts such
    /// as a different rasteriser's rounding. Values outside 0...1 are clamped.
    public var threshold: Double
    /// Count anti-aliased pixels as differences too.
    public var includeAntiAliased: Bool

    public init(threshold: Double = 0.1, includeAntiAliased: Bool = false) {
        self.threshold = threshold
        self.includeAntiAliased = includeAntiAliased
    }

    /// Compares `actual` with `expected`. Different sizes are a result, not an error.
    public func compare(expected: Image, actual: Image, makeDiffImage: Bool = false) -> DiffResult {
        guard expected.size == actual.size else {
            let total = max(expected.pixelCount, actual.pixelCount)
            return DiffResult(
                expectedSize: expected.size, actualSize: actual.size,
                differingPixels: total, antiAliasedPixels: 0, totalPixels: total, diffImage: nil)
        }
        let t = min(1, max(0, threshold))
        let limit = YIQ.maximumDistance * t * t
        let width = expected.width
        let height = expected.height
        var differing = 0
        var antiAliased = 0
        var diff = makeDiffImage ? Image(width: width, height: height) : nil
        expected.withUnsafeBytes { expectedBytes in
            actual.withUnsafeBytes { actualBytes in
                guard let e = expectedBytes.baseAddress, let a = actualBytes.baseAddress else { return }
                let one = PixelGrid(base: e, width: width, height: height)
                let two = PixelGrid(base: a, width: width, height: height)
                // Identical buffers need no per-pixel work unless a diff image is wanted.
                if diff == nil, memcmp(e, a, expectedBytes.count) == 0 { return }
                var marks = [UInt8](repeating: 0, count: makeDiffImage ? width * height : 0)  // 1 diff, 2 aa
                for y in 0..<height {
                    for x in 0..<width {
                        let p = one[x, y]
                        let q = two[x, y]
                        guard p != q, YIQ.distance(p, q) > limit else { continue }
                        let aa =
                            !includeAntiAliased
                            && (AntiAliasing.isAntiAliased(one, two, x: x, y: y)
                                || AntiAliasing.isAntiAliased(two, one, x: x, y: y))
                        if aa { antiAliased += 1 } else { differing += 1 }
                        if makeDiffImage { marks[y * width + x] = aa ? 2 : 1 }
                    }
                }
                if makeDiffImage { diff = Self.diffImage(of: one, marks: marks) }
            }
        }
        return DiffResult(
            expectedSize: expected.size, actualSize: actual.size, differingPixels: differing,
            antiAliasedPixels: antiAliased, totalPixels: width * height, diffImage: diff)
    }

    /// The expected image in faded grey (its luma pulled 90% of the way to white) so that
    /// the red (differing) and yellow (anti-aliased) pixels stand out in context.
    static func diffImage(of expected: PixelGrid, marks: [UInt8]) -> Image {
        var image = Image(width: expected.width, height: expected.height)
        image.withUnsafeMutableBytes { out in
            for y in 0..<expected.height {
                for x in 0..<expected.width {
                    let i = y * expected.width + x
                    let word: UInt32
                    switch marks[i] {
                    case 1: word = 0xFF00_00FF  // red, opaque (R is the low byte)
                    case 2: word = 0xFF00_FFFF  // yellow
                    default:
                        let grey = UInt32((255 + (YIQ.luma(expected[x, y]) - 255) * 0.1).rounded())
                        word = grey | grey << 8 | grey << 16 | 0xFF00_0000
                    }
                    out.storeBytes(of: word.littleEndian, toByteOffset: i * 4, as: UInt32.self)
                }
            }
        }
        return image
    }
}
