import Geodesy
import Render

/// The longitude and latitude of the frame's corners, printed in the collar's corners.
enum CornerCoordinates {
    /// `corners` on the page: top-left, top-right, bottom-left, bottom-right (a quadrangle's
    /// corners are not the frame's).
    static func items(_ corners: [PlanePoint], plane: any SheetPlane, transform: FrameTransform) -> [PageItem] {
        let gap = FrameGrid.labelGap
        let font = FrameGrid.cornerFont
        var items: [PageItem] = []
        let placing: [(PageTextAnchor.Horizontal, Bool)] = [
            (.right, true), (.left, true), (.right, false), (.left, false),
        ]
        for (corner, (horizontal, top)) in zip(corners, placing) {
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
