import Foundation
import MapModel
import Raster
import Render
import Tiles

/// A map document's tiles, rendered when asked for through the metatile renderer of
/// `meridian tiles` (`OnDemandRenderer`), so each tile has the bytes a tile job writes.
///
/// A request looks in memory (`TileMemoryCache`), then in the disk cache when there is one
/// (a directory pyramid, `--cache DIR`), then renders the tile's metatile, or waits for the
/// render another request started. A render's tiles all go to memory, and its non-empty ones
/// to the disk cache.
public final class RenderedTiles: ServedTiles {
    /// How a map is cut and encoded: the options of `meridian tiles`.
    public struct Options: Sendable {
        public var pyramid: TilePyramid
        public var format: TileFormat
        public var imageFormat: TileImageFormat
        public var buffer: Int
        public var metatileSize: Int
        public var workers: Int
        public var skipEmpty: Bool
        /// Bytes of tiles kept in memory.
        public var memoryBytes: Int

        public init(
            pyramid: TilePyramid, format: TileFormat, imageFormat: TileImageFormat, buffer: Int, metatileSize: Int,
            workers: Int, skipEmpty: Bool, memoryBytes: Int
        ) {
            self.pyramid = pyramid
            self.format = format
            self.imageFormat = imageFormat
            self.buffer = buffer
            self.metatileSize = metatileSize
            self.workers = workers
            self.skipEmpty = skipEmpty
            self.memoryBytes = memoryBytes
        }
    }

    public let metadata: TileSetMetadata
    public let layers: Set<TileLayer>
    private let renderers: [TileLayer: OnDemandRenderer]
    private let memory: TileMemoryCache
    private let disk: [TileLayer: DiskCache]

    /// A layer's tiles on disk: read as a pyramid, written through a directory sink.
    private struct DiskCache: Sendable {
        let pyramid: DirectoryPyramid
        let sink: DirectorySink
    }

    /// `map` is drawn as it is; `withoutGrid`, when given, is the same map without its grid.
    public init(
        map: LoadedMap, withoutGrid: LoadedMap?, metadata: TileSetMetadata, options: Options, cache: String?
    ) throws {
        self.metadata = metadata
        var renderers: [TileLayer: OnDemandRenderer] = [:]
        var maps: [TileLayer: LoadedMap] = [.map: map]
        if let withoutGrid { maps[.withoutGrid] = withoutGrid }
        for (layer, layerMap) in maps {
            renderers[layer] = try OnDemandRenderer(
                pyramid: options.pyramid, metatileSize: options.metatileSize, workers: options.workers,
                encoder: options.imageFormat.encoder(imagery: layerMap.document.hasRasterLayers),
                skipEmpty: options.skipEmpty
            ) {
                // The pyramid's area, as `meridian tiles --bbox` renders it: polygons it cuts
                // are labelled inside it, so served tiles equal that job's.
                try MapTileRenderer(
                    map: layerMap, format: options.format, buffer: options.buffer, extent: options.pyramid.bounds)
            }
        }
        self.renderers = renderers
        layers = Set(maps.keys)
        memory = TileMemoryCache(capacityBytes: options.memoryBytes)
        var disk: [TileLayer: DiskCache] = [:]
        if let cache {
            try RenderedTiles.checkCache(cache, metadata: metadata)
            for layer in maps.keys {
                let root = layer == .map ? cache : cache + "/" + ViewerPage.withoutGridFolder
                let ext = options.imageFormat.fileExtension
                disk[layer] = DiskCache(
                    pyramid: DirectoryPyramid(root: root, scheme: .xyz, fileExtension: ext),
                    sink: try DirectorySink(root: root, scheme: .xyz, job: "serve", fileExtension: ext))
            }
            try PyramidFiles.write(root: cache, metadata: metadata, scheme: .xyz, withoutGrid: withoutGrid != nil)
        }
        self.disk = disk
    }

    /// A cache directory must hold tiles of this tile set (same zooms, bounds, format, tile
    /// size, buffer), or none.
    static func checkCache(_ cache: String, metadata: TileSetMetadata) throws {
        let tileJSON = cache + "/" + TileJSON.fileName
        guard FileManager.default.fileExists(atPath: tileJSON) else { return }
        let found = try TileJSON.read(tileJSON).metadata
        if let difference = metadata.identityDifference(from: found) {
            throw ServeError(
                "--cache \(cache): holds the tiles of another tile set (its \(difference.key) is '\(difference.found ?? "missing")', this server's is '\(difference.expected ?? "missing")'): give another folder, or empty this one"
            )
        }
    }

    public func lookup(_ tile: TileID, layer: TileLayer) throws -> TileLookup {
        guard let renderer = renderers[layer] else { return .outside }
        let key = TileMemoryCache.Key(layer: layer, tile: tile)
        if let remembered = memory.get(key) {
            return remembered.map { .tile($0, origin: "memory") } ?? .absent(origin: "memory")
        }
        guard let metatile = renderer.metatile(containing: tile) else { return .outside }
        if let disk = disk[layer], let data = try disk.pyramid.tileData(tile) {
            let found = EncodedTile(tile: tile, data: data, dataHash: ContentHash(of: data))
            memory.put(key, found)
            return .tile(found, origin: "disk")
        }
        let outcome = try renderer.tiles(
            of: metatile, stored: { memory.get(key) }, store: { try keep($0, of: metatile, layer: layer) })
        let found: EncodedTile?
        let origin: String
        switch outcome {
        case .stored(let remembered): (found, origin) = (remembered, "memory")
        case .rendered(let tiles): (found, origin) = (tiles[tile] ?? nil, "render")
        case .waited(let tiles): (found, origin) = (tiles[tile] ?? nil, "wait")
        }
        return found.map { .tile($0, origin: origin) } ?? .absent(origin: origin)
    }

    /// A render's tiles: all to memory, the non-empty ones not yet there to the disk cache.
    private func keep(_ tiles: OnDemandRenderer.Tiles, of metatile: Metatile, layer: TileLayer) throws {
        for (id, encoded) in tiles { memory.put(TileMemoryCache.Key(layer: layer, tile: id), encoded) }
        if let disk = disk[layer] {
            let stored = try disk.sink.storedTiles(in: metatile)
            try disk.sink.write(
                tiles.values.compactMap { $0 }.filter { !stored.contains($0.tile) }.sorted { $0.tile < $1.tile })
        }
    }

    /// Ends the renderers; the disk cache stays, complete as far as it goes.
    public func stop() throws {
        for renderer in renderers.values { renderer.stop() }
        for cache in disk.values { try cache.sink.finish() }
    }
}
