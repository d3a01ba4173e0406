import Foundation
import MapModel
import TestSupport
import Testing

@testable import Render

/// Shape markers composited from stamps (`MarkerStamps`) against the same markers filled and
/// outlined as Cairo paths, the way every marker was drawn before.
@Suite struct MarkerStampTests {
    /// Every shape, with and without an outline, opaque and translucent.
    static let markers: [MarkerDrawing] = MarkerShape.allCases.flatMap { shape in
        [
            MarkerDrawing(
                shape: shape, icon: nil, width: 9, height: 9, rotation: 0, fill: Color(rgb: 0xD62728), opacity: 1,
                outline: (Color.white, 1.5, .miter)),
            MarkerDrawing(
                shape: shape, icon: nil, width: 5.3, height: 5.3, rotation: 0, fill: Color(rgb: 0x1F3A93),
                opacity: 0.6, outline: nil),
        ]
    }

    func canvas() throws -> (CairoSurface, CairoContext) {
        let surface = try CairoSurface.image(width: 320, height: 240)
        let context = CairoContext(surface)
        context.setColor(Color(rgb: 0xB5D0D0))
        context.paint()
        context.setEvenOddFill()
        return (surface, context)
    }

    /// 2,000 markers at sub-pixel positions (a fixed pseudo-random sequence), many over each
    /// other. A stamp's centre is at most 1/64 px from the path's. Cairo samples coverage on
    /// 15 rows a pixel, so such a shift can move an edge past one row of samples (1/15 of a
    /// pixel's coverage, 17 of 255 at full contrast) at each of a pixel's two edges (fill and
    /// outline): at most 34. Most pixels move far less: on average under half a unit.
    @Test func stampsDrawWhatThePathsDraw() throws {
        let (stamped, stampContext) = try canvas()
        let (pathed, pathContext) = try canvas()
        let stamps = MarkerStamps()
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for k in 0..<2000 {
            let marker = Self.markers[k % Self.markers.count]
            let x = next() * 340 - 10
            let y = next() * 260 - 10
            #expect(stamps.draw(marker, x: x, y: y, into: stampContext))
            MarkerPainter.drawShape(marker, x: x, y: y, into: pathContext)
        }
        // Each style at most once per phase.
        #expect(stamps.made <= Self.markers.count * MarkerStamps.phases * MarkerStamps.phases)
        #expect(stamps.made > Self.markers.count)
        var largest = 0
        var sum = 0
        var total = 0
        stamped.withPixels { a in
            pathed.withPixels { b in
                for i in 0..<a.count {
                    let d = abs(Int(a[i]) - Int(b[i]))
                    largest = max(largest, d)
                    sum += d
                    total += 1
                }
            }
        }
        #expect(largest <= 34, "largest channel difference \(largest)")
        #expect(Double(sum) / Double(total) < 0.5, "mean channel difference \(Double(sum) / Double(total))")
    }

    /// Where a stamp would not give the path's pixels, the caller is told to draw the path.
    @Test func onlyWholePixelsOfAnImageAreStamped() throws {
        let marker = Self.markers[0]
        let stamps = MarkerStamps()
        let (_, context) = try canvas()
        #expect(stamps.draw(marker, x: 10.3, y: 20.7, into: context))
        context.save()
        context.translate(3, -2)
        #expect(stamps.draw(marker, x: 10.3, y: 20.7, into: context), "moved by whole pixels")
        context.translate(0.5, 0)
        #expect(!stamps.draw(marker, x: 10.3, y: 20.7, into: context), "moved by half a pixel")
        context.restore()
        context.save()
        context.scale(2, 2)
        #expect(!stamps.draw(marker, x: 10.3, y: 20.7, into: context), "scaled")
        context.restore()
        context.setCompositing(.multiply)
        #expect(!stamps.draw(marker, x: 10.3, y: 20.7, into: context), "another compositing")
        context.setCompositing(.normal)
        var turned = marker
        turned.rotation = 0.3
        #expect(!stamps.draw(turned, x: 10.3, y: 20.7, into: context), "turned")
        var huge = marker
        huge.width = 200
        huge.height = 200
        #expect(!stamps.draw(huge, x: 10.3, y: 20.7, into: context), "too large")

        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let pdf = try CairoSurface.pdf(
            path: folder.appendingPathComponent("m.pdf").path, widthPoints: 100, heightPoints: 100)
        #expect(!stamps.draw(marker, x: 10.3, y: 20.7, into: CairoContext(pdf)), "a vector file")
        try pdf.finish()
    }

    /// The whole pixel and phase of a coordinate: the nearest 32nd, negative ones too.
    @Test func snapping() {
        #expect(MarkerStamps.phases == 32)
        #expect(MarkerStamps.snap(10.3) == (10, 10))  // 10.3 x 32 = 329.6
        #expect(MarkerStamps.snap(10.99) == (11, 0))  // 351.68, past 351.5
        #expect(MarkerStamps.snap(-0.3) == (-1, 22))  // -9.6 -> -10 = -32 + 22
        #expect(MarkerStamps.snap(-2.0) == (-2, 0))
    }
}
