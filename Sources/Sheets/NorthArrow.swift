import Foundation
import Geodesy
import MapModel
import Render

/// The north arrow: grid north straight up the sheet (the grid is square to the frame) and
/// true north at the grid convergence from it, with the angle written out. Convergence is a
/// fraction of a degree near the central meridian; angles under `minimumDrawn` are drawn
/// opened up to it, and the diagram says so.
struct NorthArrow {
    /// Grid convergence at the sheet's centre: the bearing of grid north, clockwise from true
    /// north, in degrees (positive east of the central meridian in the northern hemisphere).
    let convergence: Double

    static let minimumDrawn = 12.0
    static let length = 19.0
    static let font = PageFont(size: 6.5)
    static let letterFont = PageFont(size: 7, bold: true)

    /// The angle as printed, to the minute.
    var angle: String { AngleFormat.dms(abs(convergence), kind: .plain, trailing: .minute, style: .compact) }

    /// Under half a minute of arc the two norths are printed and drawn as one (a convergence
    /// measured by finite differences is a few nanodegrees on the central meridian, not 0).
    var agree: Bool { angle == "0°" }

    /// `Grid north is 0°31' east of true north at the centre of the sheet.`
    var sentence: String {
        if agree { return "Grid north and true north agree at the centre of the sheet." }
        return "Grid north is \(angle) \(convergence > 0 ? "east" : "west") of true north at the centre of the sheet."
    }

    var isExaggerated: Bool { !agree && abs(convergence) < NorthArrow.minimumDrawn }

    func items(in box: Rect, measure: (PageText) -> PageTextSize) -> [PageItem] {
        let base = PlanePoint(x: box.minX + 10, y: box.minY + NorthArrow.length + 7)
        let top = PlanePoint(x: base.x, y: base.y - NorthArrow.length)
        var items: [PageItem] = []
        // Grid north: a line with a solid arrowhead, `GN` above.
        let head = [
            PlanePoint(x: top.x, y: top.y), PlanePoint(x: top.x - 1, y: top.y + 3.2),
            PlanePoint(x: top.x + 1, y: top.y + 3.2),
        ]
        items.append(
            .path(
                [PagePolyline([base, PlanePoint(x: top.x, y: top.y + 2)])], stroke: PageStroke(width: 0.3), fill: nil))
        items.append(.path([PagePolyline(head, closed: true)], stroke: nil, fill: .black))
        items.append(
            .text(
                PageText(
                    "GN", font: NorthArrow.letterFont, at: PlanePoint(x: top.x, y: top.y - 0.6),
                    anchor: PageTextAnchor(.center, .bottom))))
        // True north: `convergence` anticlockwise of grid north, ending in a star.
        let drawn = (isExaggerated ? NorthArrow.minimumDrawn * (convergence > 0 ? 1 : -1) : convergence) * .pi / 180
        let reach = NorthArrow.length - 3
        let tip = PlanePoint(x: base.x - sin(drawn) * reach, y: base.y - cos(drawn) * reach)
        if !agree {
            items.append(.path([PagePolyline([base, tip])], stroke: PageStroke(width: 0.2), fill: nil))
        }
        let starCentre =
            !agree
            ? PlanePoint(x: tip.x - sin(drawn) * 1.6, y: tip.y - cos(drawn) * 1.6)
            : PlanePoint(x: top.x, y: top.y - 5.5)
        items.append(.path([star(at: starCentre, radius: 1.5)], stroke: nil, fill: .black))
        // The words beside it.
        var lines = [sentence]
        if isExaggerated { lines.append("(The angle is opened up in the diagram.)") }
        let textBox = Rect(x: box.minX + 20, y: box.minY + 4, width: box.width - 20, height: box.height - 4)
        items += Marginalia.paragraphs(lines, font: NorthArrow.font, in: textBox, measure: measure).items
        return items
    }

    /// A five-pointed star (the symbol of true north, pointing at the pole).
    func star(at centre: PlanePoint, radius: Double) -> PagePolyline {
        var points: [PlanePoint] = []
        for i in 0..<10 {
            let r = i % 2 == 0 ? radius : radius * 0.4
            let a = Double(i) * .pi / 5
            points.append(PlanePoint(x: centre.x + r * sin(a), y: centre.y - r * cos(a)))
        }
        return PagePolyline(points, closed: true)
    }
}
