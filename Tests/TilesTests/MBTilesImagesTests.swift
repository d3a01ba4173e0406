import Foundation
import TestSupport
import Testing

@testable import Tiles

/// Images are shared by hash only when their bytes agree: a forged collision is refused.
@Suite struct MBTilesImagesTests {
    @Test func aSharedHashNeedsTheSameBytes() throws {
        let folder = try TemporaryFolder.create().path
        defer { TemporaryFolder.remove(folder) }
        let path = folder + "/t.mbtiles"
        let sink = try MBTilesSink(path: path, metadata: TileJobTests.metadata, resume: false)
        let hash = ContentHash(high: 1, low: 2)
        try sink.write([
            EncodedTile(tile: TileID(z: 1, x: 0, y: 0), data: [1, 2, 3], dataHash: hash),
            EncodedTile(tile: TileID(z: 1, x: 1, y: 0), data: [1, 2, 3], dataHash: hash),
        ])
        #expect(sink.statistics.newImages == 1)
        // The error names the file being written: the in-progress one.
        #expect(throws: TilesError.hashCollision(path: path + ".partial", id: hash.hex)) {
            try sink.write([EncodedTile(tile: TileID(z: 1, x: 0, y: 1), data: [9], dataHash: hash)])
        }
        try sink.finish()
        #expect(try SQLiteShell.query(path, "SELECT tile_id, hex(tile_data) FROM images") == "\(hash.hex)|010203")
        // Rows count from the south in MBTiles: y 0 at zoom 1 is row 1.
        #expect(try SQLiteShell.query(path, "SELECT tile_column, tile_row FROM map ORDER BY 1") == "0|1\n1|1")
    }
}
