import Geodesy
import Render

/// The longitude and latitude of the frame's corners, printed in the collar's corners.
enum CornerCoordinates {
    static func items(plane: UTMPlane, transform: FrameTransform) -> [PageItem] {
        let f = transform.frame
        let gap = FrameGrid.labelGap
        let font = FrameGrid.cornerFont
        var items: [PageItem] = []
        let corners: [(PagePoint, PageTextAnchor.Horizontal, Bool)] = [
            (PagePoint(f.minX, f.minY), .right, true), (PagePoint(f.maxX, f.minY), .left, true),
            (PagePoint(f.minX, f.maxY), .right, false), (PagePoint(f.maxX, f.maxY), .left, false),
        ]
        for (corner, horizontal, top) in corners {
            let q = transform.plane(corner)
            let p = plane.unproject(q.x, q.y)
            let latitude = AngleFormat.dms(p.latitude, kind: .latitude, trailing: .second, style: .compact)
            let longitude = AngleFormat.dms(p.longitude, kind: .longitude, trailing: .second, style: .compact)
            let x = horizontal == .right ? corner.x - gap : corner.x + gap
            // Two lines: latitude, then longitude, hugging the corner.
            let lineHeight = font.size * 25.4 / 72 * 1.2
            let firstY = top ? corner.y - gap - 2 * lineHeight : corner.y + gap
            items.append(
                .text(
                    PageText(latitude, font: font, at: PagePoint(x, firstY), anchor: PageTextAnchor(horizontal, .top))))
            items.append(
                .text(
                    PageText(
                        longitude, font: font, at: PagePoint(x, firstY + lineHeight),
                        anchor: PageTextAnchor(horizontal, .top))))
        }
        return items
    }
}
