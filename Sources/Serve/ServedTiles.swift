import Foundation
import Raster
import Synchronization
import Tiles

/// Which rendering of the map a request asks for: the tiles as `meridian tiles` makes them,
/// or (for a map with a grid) the same map without its grid, for the viewer's switch.
public enum TileLayer: String, Sendable, Hashable {
    case map
    case withoutGrid = "without-grid"
}

/// What a request for a tile finds.
public enum TileLookup: Sendable {
    /// The tile's bytes, and where they came from (for the access log).
    case tile(EncodedTile, origin: String)
    /// A tile of the pyramid that holds nothing (left out by `--skip-empty`, or missing from
    /// an archive).
    case absent(origin: String)
    /// Not a tile of the pyramid (a zoom or place it does not cover).
    case outside
}

/// Where a server's tiles come from: an archive, or a map rendered on demand.
public protocol ServedTiles: Sendable {
    /// The tile set's description (TileJSON, the viewer page).
    var metadata: TileSetMetadata { get }
    /// The layers served: `.withoutGrid` too for a map with a grid.
    var layers: Set<TileLayer> { get }
    func lookup(_ tile: TileID, layer: TileLayer) throws -> TileLookup
    /// Called once the server has stopped.
    func stop() throws
}

/// The tiles of a directory pyramid, an MBTiles file or a PMTiles archive. Reads go through
/// one lock (an MBTiles connection is not shared between threads).
public final class ArchiveTiles: ServedTiles {
    public let metadata: TileSetMetadata
    public let layers: Set<TileLayer> = [.map]
    private let source: Mutex<any PyramidSource>

    public init(path: String) throws {
        let opened = try openPyramid(path)
        metadata = try opened.metadata()
        source = Mutex(opened)
    }

    public func lookup(_ tile: TileID, layer: TileLayer) throws -> TileLookup {
        guard layer == .map else { return .outside }
        let data = try source.withLock { source in try source.tileData(tile) }
        guard let data else { return .absent(origin: "archive") }
        return .tile(EncodedTile(tile: tile, data: data, dataHash: ContentHash(of: data)), origin: "archive")
    }

    public func stop() throws {}
}
