import Foundation
import Raster

/// What a directory pyramid holds beside its tiles: `tiles.json` (TileJSON 3.0.0) for map
/// clients, and `index.html` with a copy of Leaflet (`leaflet/`) to look at the tiles in a
/// browser, with no server and no network.
public enum PyramidFiles {
    /// Writes `tiles.json`, and the viewer page with Leaflet when Debian's libjs-leaflet is
    /// installed (returns false, writing no page, when it is not). `withoutGrid`: the map has
    /// a grid and `root/without-grid/` holds the same map without it. Each file is written
    /// atomically; a shard of a job writes the same bytes as every other.
    @discardableResult
    public static func write(
        root: String, metadata: TileSetMetadata, scheme: TileScheme, withoutGrid: Bool,
        leaflet: String = LeafletAssets.installed
    ) throws(TilesError) -> Bool {
        let format = metadata.values["format"] ?? "png"
        let tiles = TileJSON.relativeTiles(format: format)
        try write(TileJSON.document(metadata, tiles: tiles, scheme: scheme), to: root + "/" + TileJSON.fileName)
        guard FileManager.default.fileExists(atPath: leaflet + "/leaflet.js") else { return false }
        for file in LeafletAssets.files {
            let bytes: [UInt8]
            do { bytes = try FileIO.readBytes(atPath: leaflet + "/" + file) } catch {
                throw .io(path: error.path, message: "cannot copy Leaflet for the viewer page (\(error.reason))")
            }
            let target = root + "/leaflet/" + file
            do {
                try FileManager.default.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                throw .io(path: target, message: "cannot create its folder (\(error.localizedDescription))")
            }
            try write(bytes, to: target)
        }
        let page = ViewerPage(
            metadata: metadata, tiles: tiles,
            tilesWithoutGrid: withoutGrid ? ViewerPage.withoutGridFolder + "/" + tiles : nil, scheme: scheme)
        try write(Array(page.html.utf8), to: root + "/index.html")
        return true
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(TilesError) {
        do { try FileIO.writeAtomically(bytes, toPath: path) } catch { throw .io(path: path, message: error.reason) }
    }
}
