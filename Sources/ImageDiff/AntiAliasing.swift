/// Anti-aliased pixel detection after Vysniauskas ("Anti-aliased pixel and intensity slope
/// detector", 2009), used to tell a difference that comes only from anti-aliasing (an edge
/// drawn a fraction of a pixel elsewhere, another rasteriser's coverage) from a real change.
///
/// A pixel is taken as anti-aliased when, in its 3x3 neighbourhood, it lies on a slope of
/// brightness: it has both a darker and a brighter neighbour, few neighbours of its own
/// brightness, and the darkest or the brightest neighbour sits inside a flat area (it has
/// several identical neighbours) in *both* images, so the edge itself exists in both and
/// only the intermediate pixel moved.
enum AntiAliasing {
    /// Whether the pixel at (x, y) of `image` is anti-aliasing, given the other image.
    static func isAntiAliased(_ image: PixelGrid, _ other: PixelGrid, x: Int, y: Int) -> Bool {
        let x0 = max(x - 1, 0)
        let x1 = min(x + 1, image.width - 1)
        let y0 = max(y - 1, 0)
        let y1 = min(y + 1, image.height - 1)
        // A pixel on the image border is missing neighbours: count that as one of equal
        // brightness, so border pixels need more evidence.
        var equal = (x == 0 || x == image.width - 1 || y == 0 || y == image.height - 1) ? 1 : 0
        var darkest = 0.0
        var brightest = 0.0
        var darkX = 0
        var darkY = 0
        var brightX = 0
        var brightY = 0
        let centre = YIQ.luma(image[x, y])
        for ny in y0...y1 {
            for nx in x0...x1 where nx != x || ny != y {
                let delta = YIQ.luma(image[nx, ny]) - centre
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }  // inside a flat area, not on an edge
                } else if delta < darkest {
                    darkest = delta
                    darkX = nx
                    darkY = ny
                } else if delta > brightest {
                    brightest = delta
                    brightX = nx
                    brightY = ny
                }
            }
        }
        // A local extreme of brightness (a dot, a thin line) is a feature, not a blend.
        guard darkest < 0, brightest > 0 else { return false }
        return (inFlatArea(image, x: darkX, y: darkY) && inFlatArea(other, x: darkX, y: darkY))
            || (inFlatArea(image, x: brightX, y: brightY) && inFlatArea(other, x: brightX, y: brightY))
    }

    /// More than two of the 3x3 neighbours have exactly this pixel's colour.
    static func inFlatArea(_ image: PixelGrid, x: Int, y: Int) -> Bool {
        let x0 = max(x - 1, 0)
        let x1 = min(x + 1, image.width - 1)
        let y0 = max(y - 1, 0)
        let y1 = min(y + 1, image.height - 1)
        var same = (x == 0 || x == image.width - 1 || y == 0 || y == image.height - 1) ? 1 : 0
        let centre = image[x, y]
        for ny in y0...y1 {
            for nx in x0...x1 where (nx != x || ny != y) && image[nx, ny] == centre {
                same += 1
                if same > 2 { return true }
            }
        }
        return false
    }
}
