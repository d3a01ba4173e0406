import Foundation
import Geodesy
import MapModel
import Render

/// The grid-reference box of an MGRS or USNG sheet, as NGA and USGS sheets print one in the
/// margin: how to give a reference with this sheet's 100,000 m square letters and grid
/// values, worked through for a sample point circled on the map. The sample reference is
/// our MGRS code's, at the precision the grid is read to (a tenth of its interval).
enum GridReferenceBox {
    struct Sample {
        /// Plane metres (the sheet's zone).
        var point: PlanePoint
        var reference: MGRSReference
        /// The grid lines west and south of the point (plane metres).
        var lineEasting: Double
        var lineNorthing: Double
    }

    static let titleFont = PageFont(size: 6, bold: true)
    static let font = PageFont(size: 5)
    /// Keeps a step's figures and its result on one line when the box wraps it.
    static let nbsp = "\u{00A0}"
    static let padding = 1.2
    static let markRadius = 1.1

    /// The sample point: in the middle of the tenth of a grid square a little south-east of
    /// the frame's centre (clear of the square letters printed there), with its reference;
    /// nil for grids read to whole 100 km squares and where the point has no MGRS square.
    static func sample(plane: UTMPlane, transform: FrameTransform, interval: Double) -> Sample? {
        guard interval <= 10_000 else { return nil }
        let e = transform.extent
        let tenth = interval / 10
        let x = ((e.minX + e.width * 0.62) / tenth).rounded(.down) * tenth + tenth / 2
        let y = ((e.minY + e.height * 0.38) / tenth).rounded(.down) * tenth + tenth / 2
        let digits = 6 - Int(log10(interval).rounded())
        let c = UTMCoordinate(zone: plane.zone, isNorth: plane.isNorth, easting: x, northing: y)
        let latitude = plane.unproject(PlanePoint(x: x, y: y)).latitude
        guard let reference = try? MGRS.reference(c, latitude: latitude, digits: digits) else { return nil }
        return Sample(
            point: PlanePoint(x: x, y: y), reference: reference,
            lineEasting: (x / interval).rounded(.down) * interval,
            lineNorthing: (y / interval).rounded(.down) * interval)
    }

    /// The figures of a grid line within its 100 km square, as many as the reference gives
    /// before the tenths (`85` for 585,000 m on a 1 km grid); where the line's value in the
    /// collar shows other large figures (`59` for 590,000 m on a 10 km grid, whose reference
    /// takes the `9`), those too: `9 (of 59)`.
    static func figures(_ value: Double, axis: FrameGrid.Axis, interval: Double, digits: Int) -> String {
        let n = Int((value.truncatingRemainder(dividingBy: 100_000) / interval).rounded())
        let text = String(n)
        let figures = String(repeating: "0", count: max(0, digits - 1 - text.count)) + text
        let printed = FrameGrid.principalParts(value, axis: axis, interval: interval).principal
        return printed == figures ? figures : "\(figures)\(nbsp)(of\(nbsp)\(printed))"
    }

    /// The box's title and lines: how to read a reference, step by step, for the sample.
    static func lines(_ sample: Sample, interval: Double) -> (title: String, lines: [String]) {
        let r = sample.reference
        let parts = r.usng.split(separator: " ").map(String.init)
        let (square, easting, northing) = (parts[1], parts[2], parts[3])
        let west = figures(sample.lineEasting, axis: .easting, interval: interval, digits: r.digits)
        let south = figures(sample.lineNorthing, axis: .northing, interval: interval, digits: r.digits)
        return (
            "Grid reference to \(ScaleText.grouped(interval / 10)) m",
            [
                "For the point circled on the map:",
                "1. Square letters: \(square)",
                "2. Line west: \(west), tenths: \(easting.suffix(1))\(nbsp)→\(nbsp)\(easting)",
                "3. Line south: \(south), tenths: \(northing.suffix(1))\(nbsp)→\(nbsp)\(northing)",
                "Reference: \(square) \(easting) \(northing)",
                "With the grid zone, anywhere:",
                r.usng,
            ]
        )
    }

    /// The box from the top of `box` (its lines wrapped to the width, a frame around them) and
    /// the mark on the map, and how deep (mm) the box is.
    static func items(
        _ sample: Sample, interval: Double, in box: Rect, transform: FrameTransform,
        measure: (PageText) -> PageTextSize
    ) -> (items: [PageItem], height: Double) {
        let inner = box.expanded(by: -padding)
        let text = lines(sample, interval: interval)
        var items: [PageItem] = []
        var y = inner.minY
        for (line, font) in [(text.title, titleFont)] + text.lines.map({ ($0, font) }) {
            for piece in Marginalia.wrap(line, font: font, width: inner.width, measure: measure) {
                items.append(
                    .text(
                        PageText(
                            piece, font: font, at: PlanePoint(x: inner.minX, y: y), anchor: PageTextAnchor(.left, .top))
                    ))
                y += font.size * 25.4 / 72 * Marginalia.lineSpacing
            }
        }
        let height = y - box.minY + padding
        items.append(
            .path(
                [PagePolyline(Rect(x: box.minX, y: box.minY, width: box.width, height: height).corners, closed: true)],
                stroke: PageStroke(width: 0.2), fill: nil))
        items += mark(at: transform.page(sample.point))
        return (items, height)
    }

    /// A ring with a dot in it, haloed in white so it shows on any map colour.
    static func mark(at p: PlanePoint) -> [PageItem] {
        let ring = (0..<32).map { i -> PlanePoint in
            let a = Double(i) / 32 * 2 * .pi
            return PlanePoint(x: p.x + markRadius * cos(a), y: p.y + markRadius * sin(a))
        }
        let dot = ring.map { PlanePoint(x: p.x + ($0.x - p.x) * 0.25, y: p.y + ($0.y - p.y) * 0.25) }
        return [
            .path([PagePolyline(ring, closed: true)], stroke: PageStroke(color: .white, width: 0.7), fill: nil),
            .path([PagePolyline(ring, closed: true)], stroke: PageStroke(color: .black, width: 0.3), fill: nil),
            .path([PagePolyline(dot, closed: true)], stroke: nil, fill: .black),
        ]
    }
}
