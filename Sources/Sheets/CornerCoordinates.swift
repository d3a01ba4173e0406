import Geodesy
import MapModel
import Render

/// The longitude and latitude of the frame's corners, printed in the collar's corners.
enum CornerCoordinates {
    /// `corners` on the page: top-left, top-right, bottom-left, bottom-right (a quadrangle's
    /// corners are not the frame's).
    /// `annotation`, when it writes latitudes and longitudes, writes them its way (to the
    /// second's precision in its unit: `40°52.50′ N`); otherwise D°M′S″, `40°52'30"N`.
    static func items(
        _ corners: [PlanePoint], plane: any SheetPlane, transform: FrameTransform, annotation: GridAnnotation? = nil
    ) -> [PageItem] {
        let gap = FrameGrid.labelGap
        let font = FrameGrid.cornerFont
        var items: [PageItem] = []
        let placing: [(PageTextAnchor.Horizontal, Bool)] = [
            (.right, true), (.left, true), (.right, false), (.left, false),
        ]
        for (corner, (horizontal, top)) in zip(corners, placing) {
            let p = plane.unproject(transform.plane(corner))
            let latitude = text(p.latitude, kind: .latitude, annotation: annotation)
            let longitude = text(p.longitude, kind: .longitude, annotation: annotation)
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

    /// A corner's latitude or longitude, as the annotation writes a second of arc.
    static func text(_ degrees: Double, kind: AngleKind, annotation: GridAnnotation?) -> String {
        guard let style = annotation?.angleStyle(step: 1 / 3600.0) else {
            return AngleFormat.dms(degrees, kind: kind, trailing: .second, style: .compact)
        }
        return AngleFormat.annotation(degrees, kind: kind, style: style)
    }
}
