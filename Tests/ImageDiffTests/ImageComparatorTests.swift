import Raster
import Testing

@testable import ImageDiff

/// A vertical black-to-white edge with one grey anti-aliasing column at `edge`.
private func edgeImage(width: Int = 20, height: Int = 10, edge: Int) -> Image {
    var image = Image(width: width, height: height, fill: .white)
    for y in 0..<height {
        for x in 0..<width where x <= edge {
            image[x, y] = x == edge ? RGBA(128, 128, 128) : .black
        }
    }
    return image
}

@Suite struct ImageComparatorTests {
    let comparator = ImageComparator()

    @Test func identicalImagesDifferNowhere() throws {
        let image = edgeImage(edge: 7)
        let result = comparator.compare(expected: image, actual: image, makeDiffImage: true)
        #expect(result.differingPixels == 0 && result.antiAliasedPixels == 0)
        #expect(result.totalPixels == 200 && result.differingFraction == 0 && !result.sizesDiffer)
        #expect(result.summary == "0 of 200 pixels differ (0.0%)")
        // The diff image is the expected image faded toward white, in grey.
        let diff = try #require(result.diffImage)
        #expect(diff[0, 0] == RGBA(230, 230, 230))  // black: 255 + (0 - 255) * 0.1 = 229.5
        #expect(diff[7, 5] == RGBA(242, 242, 242))  // grey 128: 255 + (128 - 255) * 0.1 = 242.3
        #expect(diff[19, 0] == RGBA(255, 255, 255))
    }

    @Test func onePixelPastTheThresholdCountsOnce() throws {
        let expected = Image(width: 30, height: 20, fill: RGBA(200, 220, 240))
        var actual = expected
        actual[12, 9] = RGBA(20, 30, 40)
        let result = comparator.compare(expected: expected, actual: actual, makeDiffImage: true)
        #expect(result.differingPixels == 1 && result.antiAliasedPixels == 0)
        let diff = try #require(result.diffImage)
        #expect(diff[12, 9] == RGBA(255, 0, 0))
        #expect(diff.pixels.count == 30 * 20 * 4)
        var reds = 0
        for y in 0..<20 { for x in 0..<30 where diff[x, y] == RGBA(255, 0, 0) { reds += 1 } }
        #expect(reds == 1)
    }

    /// For a grey shift of k in every channel, I and Q do not change and the distance is
    /// 0.5053 k². With the largest distance 35215 (pixelmatch's published constant), the
    /// default threshold 0.1 allows 352.1: k = 26 gives 341.6 (under), k = 27 gives 368.4 (over).
    @Test func changesUnderTheThresholdDoNotCount() {
        let expected = Image(width: 8, height: 8, fill: RGBA(100, 100, 100))
        var under = expected
        under[3, 3] = RGBA(126, 126, 126)
        var over = expected
        over[3, 3] = RGBA(127, 127, 127)
        #expect(comparator.compare(expected: expected, actual: under).differingPixels == 0)
        #expect(comparator.compare(expected: expected, actual: over).differingPixels == 1)
        #expect(abs(YIQ.maximumDistance - 35215) < 0.5)
    }

    @Test func thresholdEnds() {
        // Red against cyan is the largest possible distance.
        let red = Image(width: 1, height: 1, fill: RGBA(255, 0, 0))
        let cyan = Image(width: 1, height: 1, fill: RGBA(0, 255, 255))
        #expect(ImageComparator(threshold: 0.999).compare(expected: red, actual: cyan).differingPixels == 1)
        #expect(ImageComparator(threshold: 1).compare(expected: red, actual: cyan).differingPixels == 0)
        let grey = Image(width: 1, height: 1, fill: RGBA(100, 100, 100))
        let nudged = Image(width: 1, height: 1, fill: RGBA(100, 100, 101))
        #expect(ImageComparator(threshold: 0).compare(expected: grey, actual: nudged).differingPixels == 1)
        #expect(ImageComparator(threshold: 0).compare(expected: grey, actual: grey).differingPixels == 0)
    }

    @Test func alphaIsBlendedOverWhite() {
        let clear = Image(width: 2, height: 2, fill: .transparent)
        let white = Image(width: 2, height: 2, fill: .white)
        let black = Image(width: 2, height: 2, fill: .black)
        let clearRed = Image(width: 2, height: 2, fill: RGBA(255, 0, 0, 0))
        #expect(comparator.compare(expected: clear, actual: white).differingPixels == 0)
        #expect(comparator.compare(expected: clear, actual: clearRed).differingPixels == 0)
        #expect(comparator.compare(expected: clear, actual: black).differingPixels == 4)
    }

    /// The same edge drawn one pixel further right: both changed columns are anti-aliasing.
    @Test func shiftedAntiAliasedEdgeIsNotCounted() {
        let expected = edgeImage(edge: 10)
        let actual = edgeImage(edge: 11)
        let result = comparator.compare(expected: expected, actual: actual, makeDiffImage: true)
        #expect(result.differingPixels == 0)
        #expect(result.antiAliasedPixels == 20)  // columns 10 and 11, ten rows each
        #expect(result.diffImage?[10, 4] == RGBA(255, 255, 0))
        #expect(result.diffImage?[11, 9] == RGBA(255, 255, 0))
        #expect(result.summary == "0 of 200 pixels differ (0.0%), 20 anti-aliased not counted")
        let counting = ImageComparator(includeAntiAliased: true).compare(
            expected: expected, actual: actual, makeDiffImage: true)
        #expect(counting.differingPixels == 20 && counting.antiAliasedPixels == 0)
        #expect(counting.diffImage?[10, 4] == RGBA(255, 0, 0))
    }

    /// A new solid shape is a real change even though its border is an edge.
    @Test func newShapeIsNotAntiAliasing() {
        let expected = Image(width: 12, height: 12, fill: .white)
        var actual = expected
        for y in 4..<7 { for x in 4..<7 { actual[x, y] = RGBA(200, 0, 0) } }
        let result = comparator.compare(expected: expected, actual: actual)
        #expect(result.differingPixels == 9 && result.antiAliasedPixels == 0)
    }

    @Test func differentSizesAreADifference() {
        let result = comparator.compare(
            expected: Image(width: 4, height: 3), actual: Image(width: 3, height: 4),
            makeDiffImage: true)
        #expect(result.sizesDiffer)
        #expect(result.differingFraction == 1 && result.differingPixels == 12)
        #expect(result.diffImage == nil)
        #expect(result.summary == "sizes differ: expected 4x3, actual 3x4")
        #expect(
            comparator.compare(expected: Image(width: 0, height: 0), actual: Image(width: 0, height: 0))
                .differingFraction == 0)
    }

    @Test func percentages() {
        #expect(DiffResult.percent(0) == "0.0%")
        #expect(DiffResult.percent(0.5) == "50.0%")
        #expect(DiffResult.percent(1.0 / 65536) == "0.001526%")
        #expect(DiffResult.percent(0.01234) == "1.234%")
    }
}
