import Geodesy
import Render

/// The longitude and latitude of the frame's corners, printed in the collar's corners.
enum CornerCoordinates {
    static func items(plane: any SheetPlane, transform: FrameTransform) -> [PageItem] {
        let f = transform.frame
        let gap = FrameGrid.labelGap
        let font = FrameGrid.cornerFont
        var items: [PageItem] = []
        let corners: [(PlanePoint, PageTextAnchor.Horizontal, Bool)] = [
            (PlanePoint(x: f.minX, y: f.minY), .right, true), (PlanePoint(x: f.maxX, y: f.minY), .left, true),
            (PlanePoint(x: f.minX, y: f.maxY), .right, false), (PlanePoint(x: f.maxX, y: f.maxY), .left, false),
        ]
        for (corner, horizontal, top) in corners {
            let p = plane.unproject(transform.plane(corner))
            let latitude = AngleFormat.dms(p.latitude, kind: .latitude, trailing: .second, style: .compact)
            let longitude = AngleFormat.dms(p.longitude, kind: .longitude, trailing: .second, style: .compact)
            let x = horizontal == .right ? corner.x - gap : corner.x + gap
            // Two lines: latitude, then longitude, hugging the corner.
            let lineHeight = font.size * 25.4 / 72 * 1.2
            let firstY = top ? corner.y - gap - 2 * lineHeight : corner.y + gap
            items.append(
                .text(
                    PageText(
                        latitude, font: font, at: PlanePoint(x: x, y: firstY), anchor: PageTextAnchor(horizontal, .top))
                ))
            items.append(
                .text(
                    PageText(
                        longitude, font: font, at: PlanePoint(x: x, y: firstY + lineHeight),
                        anchor: PageTextAnchor(horizontal, .top))))
        }
        return items
    }
}
