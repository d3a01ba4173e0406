import Geodesy
import MapModel
import Render

/// The 100 km square letters printed on an MGRS or USNG sheet's map, as NGA sheets print
/// them: large and light in the middle of each square's part of the frame, so a reader can
/// give a full reference (`18T WL 85 12`) from the map without turning to the notes.
enum SquareLetters {
    static let font = PageFont(size: 16, bold: true)
    static let color = Color(rgb: 0x1F4FB5, alpha: 0.55)
    static let halo = (color: Color(rgb: 0xFFFFFF, alpha: 0.7), width: 0.4)
    /// A square's part of the frame narrower or shorter than this (millimetres) is left
    /// unnamed: its letters would not fit it.
    static let minimumPart = 12.0

    /// The letters of every 100 km square of the sheet's zone (its grid carried over the
    /// zone's edge, as the lines are) with enough of the frame. On a sheet in another CRS the
    /// squares are those of the zone's grid over the frame, named where their middle is in it.
    static func items(plane: any SheetPlane, transform: FrameTransform) -> [PageItem] {
        let e = plane.utmBounds(of: transform.extent)
        let side = 100_000.0
        let minimum = minimumPart * transform.metresPerMillimetre
        var items: [PageItem] = []
        var i = (e.minX / side).rounded(.down)
        while i * side < e.maxX {
            var j = (e.minY / side).rounded(.down)
            while j * side < e.maxY {
                let square = Rect(minX: i * side, minY: j * side, maxX: (i + 1) * side, maxY: (j + 1) * side)
                let part = square.intersection(e)
                let centre = plane.point(utm: part.center)
                if part.width >= minimum, part.height >= minimum,
                    transform.extent.expanded(by: -minimum / 4).contains(centre),
                    let letters = MGRS.squareLetters(zone: plane.zone, easting: part.center.x, northing: part.center.y)
                {
                    items.append(
                        .text(
                            PageText(
                                String(letters.column) + String(letters.row), font: font,
                                at: transform.page(centre), anchor: PageTextAnchor(.center, .middle),
                                color: color, halo: halo)))
                }
                j += 1
            }
            i += 1
        }
        return items
    }
}
