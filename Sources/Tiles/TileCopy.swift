import Foundation
import Raster

/// Copying the tiles of one tile set into another (`meridian convert`): every tile read from
/// the source in its own order, hashed, and written to the sink in batches, so memory holds
/// one batch whatever the size of the set.
public enum TileCopy {
    public static let batchTiles = 1000

    /// Copies every tile of `source` into `sink` and finishes it. A failure or a stop
    /// discards the sink's in-progress file (a copy is quick to run again; there is nothing
    /// to resume) and throws; a stop throws `TilesError.copyStopped`.
    @discardableResult
    public static func copy(from source: any PyramidSource, into sink: any TileSink, stop: StopRequest? = nil) throws
        -> SinkStatistics
    {
        do {
            var batch: [EncodedTile] = []
            batch.reserveCapacity(batchTiles)
            try source.forEachTile { tile, data in
                batch.append(EncodedTile(tile: tile, data: data, dataHash: ContentHash(of: data)))
                if batch.count >= batchTiles {
                    try sink.write(batch)
                    batch.removeAll(keepingCapacity: true)
                    if let stop, stop.isRequested { throw TilesError.copyStopped(copied: sink.statistics.tiles) }
                }
            }
            try sink.write(batch)
        } catch {
            try? sink.discard()  // the error says what went wrong; tidying up must not hide it
            throw error
        }
        try sink.finish()
        return sink.statistics
    }
}
