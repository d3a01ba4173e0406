import Geodesy
import MapModel
import Testing

@testable import Render

/// A block's tiles get their features sorted out in one pass (`within(_:columns:)`), which must
/// choose exactly what testing every feature against each tile (`within(_:)`) chooses.
@Suite struct TileSlotsTests {
    /// Features of every size at scattered places, some with bounds exactly on tile edges or
    /// reach away from them, some far outside the block, one without bounds.
    static func content(reach: Double) throws -> MapRenderer.MapContent.LayerContent {
        var held = HeldLayer()
        let line = Geometry(kind: .line, coordinates: [0, 0, 1, 1], partStarts: [0, 2])
        let feature = Feature(index: 0, geometries: [line], properties: Properties())
        var boxes: [Rect] = []
        for i in 0..<600 {
            let x = Double((i * 7919) % 2600) - 300
            let y = Double((i * 104_729) % 2600) - 300
            let size = Double([0, 1, 7, 60, 300, 1200][i % 6])
            boxes.append(Rect(minX: x, minY: y, maxX: x + size, maxY: y + size))
        }
        for edge in stride(from: 0.0, through: 2048, by: 256) {
            boxes.append(Rect(minX: edge, minY: edge, maxX: edge, maxY: edge))
            boxes.append(Rect(minX: edge + reach, minY: 100, maxX: edge + reach + 3, maxY: 120))
            boxes.append(Rect(minX: edge - reach - 3, minY: 100, maxX: edge - reach, maxY: 120))
        }
        boxes.append(Rect.empty)
        for (i, box) in boxes.enumerated() {
            held.append(
                Feature(index: i, geometries: feature.geometries, properties: feature.properties), pixelBounds: box,
                rules: [0])
        }
        held.finish()
        let layer = Layer(name: "l", source: "l")
        let view = try View.tiles(z: 3, x: 0, y: 0, columns: 8, rows: 8, tileSize: 256, pixelRatio: 1)
        return MapRenderer.MapContent.LayerContent(
            layer: layer, scale: SymbolScale(layer: layer, map: MapDocument(path: "m"), view: view), reach: reach,
            held: held)
    }

    @Test(arguments: [0.0, 4.5, 130])
    func oneSortingPassChoosesWhatEachTileChooses(reach: Double) throws {
        let content = try Self.content(reach: reach)
        var tiles: [Rect] = []
        for row in 0..<8 {
            for column in 0..<8 {
                let x = Double(column * 256)
                let y = Double(row * 256)
                tiles.append(Rect(minX: x, minY: y, maxX: x + 256, maxY: y + 256))
            }
        }
        let sorted = content.within(tiles, columns: 8)
        #expect(sorted.count == 64)
        var total = 0
        for (tile, narrowed) in zip(tiles, sorted) {
            #expect(narrowed.slots == content.within(tile).slots)
            total += narrowed.slots?.count ?? 0
        }
        #expect(total > 600)
    }
}
