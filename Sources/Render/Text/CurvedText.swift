import CCairo
import CPango
import Foundation
import Geodesy
import MapModel

/// Text laid along a line, glyph by glyph: each glyph's centre sits on the line (or moved off
/// it by an offset), turned with the line there. Positions are in global pixels.
struct CurvedText {
    struct PlacedGlyph {
        let glyph: TextLayout.Glyph
        /// The glyph's origin (on the baseline, at its left), global pixels.
        let origin: PlanePoint
        /// Where the middle of the glyph's box lies, global pixels.
        let centre: PlanePoint
        /// Radians, clockwise.
        let angle: Double
        /// The box the turned glyph covers, halo included.
        let box: Rect
    }

    let layout: TextLayout
    let glyphs: [PlacedGlyph]

    /// The text centred `centre` pixels along `line`, moved `offset` pixels off it (to the
    /// reader's right, down, when positive). Kept upright: when the text would read right to
    /// left it is laid along the line reversed. Nil where it does not fit on the line or
    /// the line turns more than `maxAngle` (radians) between two characters.
    static func place(
        _ layout: TextLayout, along line: Polyline, centre: Double, offset: Double, maxAngle: Double, halo: Double
    ) -> CurvedText? {
        let glyphs = layout.glyphs
        guard let last = glyphs.last, line.points.count >= 2 else { return nil }
        let width = last.x + last.width
        var line = line
        var middle = centre
        let start = middle - width / 2
        guard start >= 0, start + width <= line.length else { return nil }
        if line.point(at: start + width).point.x < line.point(at: start).point.x {
            line = line.reversed
            middle = line.length - centre
        }
        let first = middle - width / 2
        let extents = layout.extents
        // The baseline's distance below the middle of the text's box.
        let baseline = layout.baseline - (extents.y + extents.height / 2)
        var placed: [PlacedGlyph] = []
        var previous: Double?
        for glyph in glyphs {
            let s = first + glyph.x + glyph.width / 2
            if let previous, line.turning(from: previous, to: s) > maxAngle { return nil }
            previous = s
            let (point, angle) = line.point(at: s)
            let c = cos(angle)
            let n = sin(angle)
            func along(_ x: Double, _ y: Double) -> PlanePoint {
                PlanePoint(x: point.x + x * c - y * n, y: point.y + x * n + y * c)
            }
            let halfWidth = glyph.width / 2 + halo
            let halfHeight = extents.height / 2 + halo
            let middleOfBox = along(0, offset)
            let reachX = abs(c) * halfWidth + abs(n) * halfHeight
            let reachY = abs(n) * halfWidth + abs(c) * halfHeight
            placed.append(
                PlacedGlyph(
                    glyph: glyph, origin: along(-glyph.width / 2 + glyph.xOffset, offset + baseline + glyph.yOffset),
                    centre: middleOfBox, angle: angle,
                    box: Rect(
                        minX: middleOfBox.x - reachX, minY: middleOfBox.y - reachY, maxX: middleOfBox.x + reachX,
                        maxY: middleOfBox.y + reachY)))
        }
        return CurvedText(layout: layout, glyphs: placed)
    }

    var bounds: Rect { glyphs.reduce(Rect.empty) { $0.union($1.box) } }

    /// Draws the glyphs, the halo first (a stroke of twice its width around their outlines).
    func draw(in context: CairoContext, view: View, color: Color, halo: (color: Color, width: Double)?) {
        if let halo { context.strokeHalo(halo) { addGlyphPaths(context, view) } }
        addGlyphPaths(context, view)
        context.setColor(color)
        context.setNonZeroFill()
        context.fill()
    }

    private func addGlyphPaths(_ context: CairoContext, _ view: View) {
        context.newPath()
        for placed in glyphs {
            guard let font = meridian_scaled_font(placed.glyph.font) else { continue }
            let origin = view.transform.image(global: placed.origin)
            context.save()
            context.translate(origin.x, origin.y)
            context.rotate(placed.angle)
            cairo_set_scaled_font(context.pointer, font)
            var glyph = cairo_glyph_t(index: UInt(placed.glyph.id), x: 0, y: 0)
            cairo_glyph_path(context.pointer, &glyph, 1)
            context.restore()
        }
    }
}
