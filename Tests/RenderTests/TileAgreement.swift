import Raster
import Testing

@testable import Render

/// Renders the `columns` x `columns` metatile whose top-left tile is z/x/y, then each tile of
/// its top row and right column alone (with the tile job's 64 px buffer): every tile must have
/// exactly the pixels of its part of the metatile. `label` names the case in a failure.
func expectTilesMatchMetatile(
    renderer: MapRenderer, z: Int, x: Int, y: Int, columns: Int, label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let block = try renderer.renderImage(
        view: try View.tiles(z: z, x: x, y: y, columns: columns, rows: columns), margin: 64, tileSize: 256)
    for dx in 0..<columns {
        for dy in 0..<columns where dx == columns - 1 || dy == 0 {
            let tile = try renderer.renderImage(
                view: try View.tiles(z: z, x: x + dx, y: y + dy), margin: 64, tileSize: 256)
            let cut = try block.cropped(x: dx * 256, y: dy * 256, width: 256, height: 256)
            var differing = 0
            for py in 0..<256 { for px in 0..<256 where tile[px, py] != cut[px, py] { differing += 1 } }
            #expect(
                differing == 0,
                "\(label), \(z)/\(x + dx)/\(y + dy): \(differing) pixels differ from its \(columns)x\(columns) metatile's",
                sourceLocation: sourceLocation)
        }
    }
}
