import Foundation
import Geodesy
import Grids
import MapModel
import TestSupport
import Testing

@testable import Render

/// What tiles ask of their grid labels again and again: the labels near a metatile, the boxes
/// near a block of map labels, and a label's pixels from its sprite. The answers must be the
/// ones the plain way gives, without the work that way did for every ask.
@Suite struct GridLabelLookupTests {
    /// A sprite already made is copied without the text's layout: after two views the text
    /// engine keeps no layout of it, and the pixels are those of the first copy.
    @Test func spritesAreCopiedWithoutTheLayout() throws {
        let text = try GridLabelRuleTests.text()
        let font = FontSpec(family: "DejaVu Sans", bold: false, italic: false, sizePixels: 10.5)
        let origin = PlanePoint(x: 0, y: 0)
        let box = Rect(x: 0, y: 0, width: 1, height: 1)
        let label = GridLabelCandidate(
            text: "18TWL 84km", font: font, color: Color(rgb: 0x2d5fa6), halo: (color: Color.white, width: 1.9),
            corner: origin, textBox: box, box: box, rank: GridLabelRank(level: 0, roundness: 0, order: 0, key: 0),
            anchor: origin)
        let painter = GridLabelPainter(text: text)
        let first = try CairoSurface.image(width: 120, height: 32)
        painter.draw(label, in: CairoContext(first), x: 6, y: 6)
        text.beginView()
        text.beginView()
        #expect(text.keptLayouts == 0)
        let second = try CairoSurface.image(width: 120, height: 32)
        painter.draw(label, in: CairoContext(second), x: 6, y: 6)
        #expect(text.keptLayouts == 0, "a sprite's copy asked for the layout")
        #expect(GridCoverageLevelsTests.words(first) == GridCoverageLevelsTests.words(second))
        // Off whole pixels the text is drawn, from its layout.
        let third = try CairoSurface.image(width: 120, height: 32)
        painter.draw(label, in: CairoContext(third), x: 6.5, y: 6)
        #expect(text.keptLayouts == 1)
    }

    /// A block of 4 x 4 tiles over New York at zoom 13.
    static func newYorkBlock() throws -> View {
        var view = try View(
            resolution: try View.tiles(z: 13, x: 0, y: 0).resolution, originX: 617_472, originY: 787_968,
            width: 1024, height: 1024, dpi: 96)
        view.isTileBlock = true
        return view
    }

    /// Grid label texts are measured once for the map's workers: a second view of the same
    /// grid (a later metatile or label region) measures none again and keeps no layout, and
    /// its labels are the first one's.
    @Test func labelTextsAreMeasuredOnce() throws {
        let text = try GridLabelRuleTests.text()
        let view = try Self.newYorkBlock()
        let overlay = GridOverlay(settings: GridSettings(type: .mgrs), view: view, text: text)
        let first = overlay.labels(cache: nil)
        let measured = text.measures.measurements
        #expect(first.count > 50 && measured > 0)
        text.beginView()
        text.beginView()
        let second = overlay.labels(cache: nil)
        #expect(text.measures.measurements == measured, "texts measured again")
        #expect(text.keptLayouts == 0, "texts shaped again")
        #expect(second.map(GridLabelBlocksTests.key) == first.map(GridLabelBlocksTests.key))
        // The same extents as the texts' layouts.
        for label in first.prefix(20) {
            let layout = text.layout(label.text, font: label.font).extents
            #expect(label.textBox.width == layout.width && label.textBox.height == layout.height)
        }
    }

    /// A grid text shaped to measure it is not shaped again for its sprite, even views later
    /// (the engine's own layouts are long gone by then): the sprite takes the measured layout,
    /// and its pixels are those an engine that never measured the text draws.
    @Test func spritesTakeTheLayoutsTheirTextsWereMeasuredWith() throws {
        let text = try GridLabelRuleTests.text()
        let view = try Self.newYorkBlock()
        let labels = GridOverlay(settings: GridSettings(type: .mgrs), view: view, text: text).labels(cache: nil)
        let texts = Set(labels.map(\.text))
        #expect(texts.count > 10)
        // Every label text measured is kept (the reach's samples are measured and let go).
        let kept = text.keptGridLayouts
        #expect(kept >= texts.count, "grid texts measured and let go")
        let shaped = text.shaped
        text.beginView()
        text.beginView()
        let painter = GridLabelPainter(text: text)
        let fresh = try GridLabelRuleTests.text()
        let plain = GridLabelPainter(text: fresh)
        var drawn = Set<String>()
        for label in labels where drawn.insert(label.text).inserted {
            let a = try CairoSurface.image(width: 160, height: 40)
            let b = try CairoSurface.image(width: 160, height: 40)
            painter.draw(label, in: CairoContext(a), x: 6, y: 6)
            plain.draw(label, in: CairoContext(b), x: 6, y: 6)
            #expect(GridCoverageLevelsTests.words(a) == GridCoverageLevelsTests.words(b), "\(label.text)")
        }
        #expect(text.shaped == shaped, "texts shaped again for their sprites")
        #expect(fresh.shaped == drawn.count)
        #expect(text.keptGridLayouts == kept - drawn.count)
    }

    /// Labels touching a rectangle come in drawing order, whether from one region or several;
    /// boxes touching it are those labels' boxes; a stack's boxes are those of the labels it
    /// keeps from each grid that goes first.
    @Test func regionsAnswerLabelsAndBoxesAlike() throws {
        let text = try GridLabelRuleTests.text()
        var random = Xorshift(state: 0x1ABE_15EE_D0C0_FFEE)
        var found = 0
        var severalRegions = 0
        for round in 0..<6 {
            let z = 10 + round % 5
            let n = Double(1 << z)
            let tx = Int((-73.97 + 180) / 360 * n)
            let latitude = 40.77 * .pi / 180
            let ty = Int((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n)
            var view = try View.tiles(z: z, x: tx, y: ty)
            view.renderedArea = Rect(
                minX: Double((tx - 6) * 256), minY: Double((ty - 6) * 256), maxX: Double((tx + 10) * 256),
                maxY: Double((ty + 10) * 256))
            var second = GridSettings(type: round % 2 == 0 ? .latlong : .utm)
            if round % 3 == 2 { second.labelPriority = .map }
            let grids = [GridSettings(type: .mgrs), second]
            let regions = grids.map { GridLabelRegions(settings: $0, view: view, text: text, cache: GridCache()) }
            let stack = GridLabelStack(regions)
            let rendered = view.renderedArea!
            for _ in 0..<30 {
                let around = rendered.expanded(by: Double(GridLabelRegions.regionSize))
                let rect = Rect(
                    x: around.minX + Double(random.below(Int(around.width))),
                    y: around.minY + Double(random.below(Int(around.height))),
                    width: Double(1 + random.below(2500)), height: Double(1 + random.below(2500)))
                for (index, grid) in regions.enumerated() {
                    let labels = grid.labels(touching: rect)
                    found += labels.count
                    let anchors = Set(
                        labels.map { "\(($0.anchor.x / 1024).rounded(.down)),\(($0.anchor.y / 1024).rounded(.down))" })
                    if anchors.count > 1 { severalRegions += 1 }
                    #expect(labels.allSatisfy { $0.box.intersects(rect) })
                    #expect(
                        zip(labels, labels.dropFirst()).allSatisfy { $0.outranks($1) },
                        "grid \(index) zoom \(z) \(rect): not in drawing order")
                    // Every label of a wider search that touches the rectangle, and no other.
                    let wider = grid.labels(touching: rect.expanded(by: 700)).filter { $0.box.intersects(rect) }
                    #expect(labels.map(GridLabelBlocksTests.key) == wider.map(GridLabelBlocksTests.key))
                    #expect(Self.sorted(grid.boxes(touching: rect)) == Self.sorted(labels.map(\.box)))
                }
                #expect(
                    stack.kept(0, touching: rect).map(GridLabelBlocksTests.key)
                        == regions[0].labels(touching: rect).map(GridLabelBlocksTests.key))
                let first = grids.indices.filter { grids[$0].labelPriority == .grid }
                let expected = first.flatMap { stack.kept($0, touching: rect).map(\.box) }
                #expect(Self.sorted(stack.boxes(touching: rect)) == Self.sorted(expected), "zoom \(z) \(rect)")
            }
        }
        #expect(found > 2000)
        #expect(severalRegions > 50, "\(severalRegions) searches across regions")
    }

    /// Thinning keeps what filtering every label by its stride keeps, in order, whether it
    /// drops none (tiles, mostly: the labels come back as they are) or some.
    @Test func thinningKeepsWhatItsStridesKeep() {
        var random = Xorshift(state: 0x7417_0EED_0000_0042)
        let spacing = GridSpacing(step: 1000, levelSteps: [100_000, 10_000, 1000])
        let font = FontSpec(family: "DejaVu Sans", bold: false, italic: false, sizePixels: 10)
        var dropped = 0
        var keptAll = 0
        for round in 0..<200 {
            var labels: [GridLabelCandidate] = []
            for i in 0..<(1 + random.below(60)) {
                let anchor = PlanePoint(x: Double(random.below(4000)), y: Double(random.below(4000)))
                let box = Rect(x: anchor.x, y: anchor.y, width: 40, height: 12)
                var label = GridLabelCandidate(
                    text: "\(i)", font: font, color: Color.black, halo: nil, corner: anchor, textBox: box, box: box,
                    rank: GridLabelRank(level: 0, roundness: 0, order: i, key: 0), anchor: anchor)
                if random.below(5) != 0 {
                    label.family = random.below(2) == 0 ? .x : .y
                    label.value = Double(random.below(100) * 1000)
                }
                labels.append(label)
            }
            // Lines 2.5 to 150 pixels apart per km: strides from every line to every 100th.
            let tiles = (extents: (x: 60.0, y: 14.0), pixelsPerUnit: Double(1 + round % 60) / 400)
            let thinned = GridLabelPlacer.thinned(labels, spacing: (spacing, spacing), tiles: tiles)
            let strides = [
                GridLabelFamily.x: GridLabelStride.stride(
                    extent: 60, pixelsPerUnit: tiles.pixelsPerUnit, spacing: spacing),
                .y: GridLabelStride.stride(extent: 14, pixelsPerUnit: tiles.pixelsPerUnit, spacing: spacing),
            ]
            let expected = labels.filter { label in
                label.family.map { GridLabelStride.keeps(label.value, stride: strides[$0]!, spacing: spacing) } ?? true
            }
            #expect(thinned.map(\.rank.order) == expected.map(\.rank.order), "round \(round)")
            if expected.count < labels.count { dropped += 1 } else { keptAll += 1 }
        }
        #expect(dropped > 20 && keptAll > 20, "\(dropped) rounds dropped labels, \(keptAll) kept all")
    }

    static func sorted(_ boxes: [Rect]) -> [String] { boxes.map { "\($0)" }.sorted() }
}
