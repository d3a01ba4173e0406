import CCairo
import Foundation
import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// Grid label sprites copied onto an image with pixman directly, and label candidates that
/// look each text up once a view: the pixels and labels must be those of the Cairo way.
@Suite struct GridLabelSpriteCopyTests {
    static func label(_ text: String, color: Color = Color(rgb: 0x2d5fa6), size: Double = 10.5)
        -> GridLabelCandidate
    {
        let font = FontSpec(family: "DejaVu Sans", bold: false, italic: false, sizePixels: size)
        let origin = PlanePoint(x: 0, y: 0)
        let box = Rect(x: 0, y: 0, width: 1, height: 1)
        return GridLabelCandidate(
            text: text, font: font, color: color, halo: (color: Color.white, width: 1.9), corner: origin,
            textBox: box, box: box, rank: GridLabelRank(level: 0, roundness: 0, order: 0, key: 0), anchor: origin)
    }

    /// A surface of random premultiplied pixels (some transparent, some opaque).
    static func background(_ width: Int, _ height: Int, _ random: inout Xorshift) throws -> CairoSurface {
        let surface = try CairoSurface.image(width: width, height: height)
        cairo_surface_flush(surface.pointer)
        let data = cairo_image_surface_get_data(surface.pointer)!
        for y in 0..<height {
            let row = (data + y * surface.stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in 0..<width {
                let r = random.next()
                let alpha: UInt32 = [0, 255, UInt32(r & 0xFF)][Int((r >> 8) % 3)]
                func channel(_ shift: UInt64) -> UInt32 { UInt32((r >> shift) & 0xFF) * alpha / 255 }
                row[x] = alpha << 24 | channel(16) << 16 | channel(24) << 8 | channel(32)
            }
        }
        cairo_surface_mark_dirty(surface.pointer)
        return surface
    }

    /// Sprites copied with pixman give `cairo_paint`'s pixels over random backgrounds, at
    /// places inside and across every edge, and every copy took the direct way.
    @Test func directCopiesAreCairosPixels() throws {
        let text = try GridLabelRuleTests.text()
        var random = Xorshift(state: 0x5EED_0F_5B17E5)
        let labels = [
            Self.label("18TWL 84km"), Self.label("4510km"), Self.label("WL", color: Color(rgb: 0x7a1f1f), size: 13),
            Self.label("18T", color: .black, size: 9),
        ]
        let painter = GridLabelPainter(text: text)
        let cairoPainter = GridLabelPainter(text: text)
        var copies = 0
        for _ in 0..<8 {
            let width = 160
            let height = 90
            let direct = try Self.background(width, height, &random)
            let plain = try CairoSurface.image(width: width, height: height)
            let context = CairoContext(plain)
            cairo_set_source_surface(context.pointer, direct.pointer, 0, 0)
            cairo_set_operator(context.pointer, CAIRO_OPERATOR_SOURCE)
            cairo_paint(context.pointer)
            cairo_set_operator(context.pointer, CAIRO_OPERATOR_OVER)
            let directContext = CairoContext(direct)
            let target = try #require(GridLabelPainter.DirectTarget(directContext))
            for _ in 0..<12 {
                let label = labels[Int(random.next() % UInt64(labels.count))]
                let x = Double(Int(random.next() % 200) - 60)
                let y = Double(Int(random.next() % 130) - 40)
                painter.draw(label, in: directContext, x: x, y: y, direct: target)
                cairoPainter.draw(label, in: context, x: x, y: y)
                copies += 1
            }
            cairo_surface_flush(direct.pointer)
            cairo_surface_flush(plain.pointer)
            #expect(GridCoverageLevelsTests.words(direct) == GridCoverageLevelsTests.words(plain))
        }
        #expect(painter.directCopies == copies)
        #expect(cairoPainter.directCopies == 0)
    }

    /// Pixman stands in for `cairo_paint` only where the paint would go straight onto the
    /// image: not under a clip, a transformation, a group or another operator.
    @Test func directTargetOnlyWithoutCairoState() throws {
        let surface = try CairoSurface.image(width: 64, height: 64)
        let context = CairoContext(surface)
        #expect(GridLabelPainter.DirectTarget(context) != nil)
        func without(_ change: (OpaquePointer) -> Void) -> Bool {
            cairo_save(context.pointer)
            defer { cairo_restore(context.pointer) }
            change(context.pointer)
            return GridLabelPainter.DirectTarget(context) == nil
        }
        #expect(
            without {
                cairo_rectangle($0, 0, 0, 32, 64)
                cairo_clip($0)
            })
        #expect(
            without {
                cairo_arc($0, 32, 32, 40, 0, 6.3)
                cairo_clip($0)
            })
        #expect(without { cairo_translate($0, 1, 0) })
        #expect(without { cairo_scale($0, 2, 2) })
        #expect(without { cairo_set_operator($0, CAIRO_OPERATOR_SOURCE) })
        // A clip as large as the image changes nothing.
        #expect(
            !without {
                cairo_rectangle($0, -5, -5, 80, 80)
                cairo_clip($0)
            })
        let offset = try CairoSurface.image(width: 8, height: 8)
        cairo_surface_set_device_offset(offset.pointer, 2, 0)
        #expect(GridLabelPainter.DirectTarget(CairoContext(offset)) == nil)
        // Inside a group (last: a restore does not end one).
        cairo_push_group(context.pointer)
        #expect(GridLabelPainter.DirectTarget(context) == nil)
        cairo_pop_group_to_source(context.pointer)
        #expect(GridLabelPainter.DirectTarget(context) != nil)
    }

    /// Sprites are found by text and size but told apart by every field: the same text in
    /// another colour is a sprite of its own.
    @Test func spritesDifferingOnlyInColourAreTwo() throws {
        let text = try GridLabelRuleTests.text()
        let painter = GridLabelPainter(text: text)
        let blue = try CairoSurface.image(width: 120, height: 32)
        let red = try CairoSurface.image(width: 120, height: 32)
        painter.draw(Self.label("4510km"), in: CairoContext(blue), x: 6, y: 6)
        painter.draw(Self.label("4510km", color: Color(rgb: 0xb01010)), in: CairoContext(red), x: 6, y: 6)
        let fresh = try CairoSurface.image(width: 120, height: 32)
        GridLabelPainter(text: text).draw(
            Self.label("4510km", color: Color(rgb: 0xb01010)), in: CairoContext(fresh), x: 6, y: 6)
        #expect(GridCoverageLevelsTests.words(blue) != GridCoverageLevelsTests.words(red))
        #expect(GridCoverageLevelsTests.words(red) == GridCoverageLevelsTests.words(fresh))
    }

    /// A view's candidates look each text up once a level (its font), not once a label, and
    /// measure it as the engine does.
    @Test func candidatesLookEachTextUpOnce() throws {
        let text = try GridLabelRuleTests.text()
        for (type, z) in [(GridType.mgrs, 13), (.utm, 12), (.latlong, 11)] {
            var view = try View(
                resolution: try View.tiles(z: z, x: 0, y: 0).resolution, originX: 617_472 / Double(1 << (13 - z)),
                originY: 787_968 / Double(1 << (13 - z)), width: 2048, height: 2048, dpi: 96)
            view.isTileBlock = true
            let overlay = GridOverlay(settings: GridSettings(type: type), view: view, text: text)
            let levels = overlay.levels()
            let grid = try #require(overlay.geometry(levels, lines: false))
            let before = text.sharedLookups
            let candidates = overlay.labelCandidates(grid, levels)
            let lookups = text.sharedLookups - before
            struct Measured: Hashable {
                let text: String
                let font: FontSpec
            }
            let distinct = Set(candidates.map { Measured(text: $0.text, font: $0.font) })
            #expect(candidates.count > 2 * distinct.count, "\(type): too few repeats to tell")
            #expect(lookups == distinct.count, "\(type): \(lookups) lookups for \(distinct.count) texts")
            for c in candidates {
                let extents = text.sharedExtents(c.text, font: c.font)
                let size = c.turned ? (extents.height, extents.width) : (extents.width, extents.height)
                #expect(c.textBox.width == size.0 && c.textBox.height == size.1)
                if c.family != nil {
                    let label = grid.labels.first { $0.anchor.x == c.anchor.x && $0.anchor.y == c.anchor.y }
                    #expect(c.zoneNumber == GridOverlay.zoneNumber(label?.zone))
                }
            }
        }
    }
}
