import Foundation
import Raster

/// TileJSON 3.0.0, the description web maps read to find a tile set: where the tiles are
/// (`tiles`, a URL template), the zoom range, bounds, centre, name, description, attribution
/// and the row scheme. Written as `tiles.json` beside every directory pyramid and served by
/// `meridian serve`.
///
/// Beyond the standard keys it carries the rest of the tile set's metadata as strings
/// (`format`, `type`, `version`, `meridian`), so that `convert` can make an MBTiles file or a
/// PMTiles archive of a directory with its metadata intact.
public enum TileJSON {
    public static let fileName = "tiles.json"
    public static let version = "3.0.0"

    /// What a TileJSON document says: the metadata, the scheme and the tile URL templates.
    public struct Document: Sendable, Equatable {
        public var metadata: TileSetMetadata
        public var scheme: TileScheme
        public var tiles: [String]
    }

    /// The keys TileJSON defines with a type of their own (numbers and arrays).
    private static let numericKeys: Set<String> = ["bounds", "center", "minzoom", "maxzoom"]

    /// The document for `metadata`, its tiles at `tiles` (`{z}/{x}/{y}.png`, relative to the
    /// document, or a full URL), keys sorted so the same tile set gives the same bytes.
    public static func document(_ metadata: TileSetMetadata, tiles: String, scheme: TileScheme) -> [UInt8] {
        var object: [String: Any] = ["tilejson": version, "tiles": [tiles], "scheme": scheme.rawValue]
        for (key, value) in metadata.values where !numericKeys.contains(key) { object[key] = value }
        if let bounds = metadata.bounds { object["bounds"] = bounds }
        if let zooms = metadata.zooms {
            object["minzoom"] = zooms.lowerBound
            object["maxzoom"] = zooms.upperBound
        }
        let center = (metadata.values["center"] ?? "").split(separator: ",").compactMap { Double($0) }
        if center.count == 3 { object["center"] = [center[0], center[1], Int(center[2])] as [Any] }
        // Strings, numbers and arrays of them always serialise.
        let data = try! JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return Array(data) + [10]
    }

    /// The URL template of a directory pyramid's tiles, relative to its `tiles.json`.
    public static func relativeTiles(format: String) -> String { "{z}/{x}/{y}.\(format)" }

    /// Reads a `tiles.json` file.
    public static func read(_ path: String) throws(TilesError) -> Document {
        let bytes: [UInt8]
        do { bytes = try FileIO.readBytes(atPath: path) } catch { throw .io(path: path, message: error.reason) }
        return try parse(bytes, path: path)
    }

    public static func parse(_ bytes: [UInt8], path: String) throws(TilesError) -> Document {
        func refuse(_ problem: String) -> TilesError {
            .incompatibleOutput(path: path, message: "is not a TileJSON document: \(problem)")
        }
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(bytes)) } catch { throw refuse("not JSON") }
        guard let object = parsed as? [String: Any] else { throw refuse("not a JSON object") }
        guard let tiles = object["tiles"] as? [String], !tiles.isEmpty else { throw refuse("no \"tiles\" array") }
        var values: [String: String] = [:]
        for (key, value) in object where !numericKeys.contains(key) && key != "tiles" && key != "tilejson" {
            if let text = value as? String { values[key] = text }
        }
        values["scheme"] = nil
        func numbers(_ key: String) -> [Double]? {
            (object[key] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
        }
        if let bounds = numbers("bounds"), bounds.count == 4 {
            values["bounds"] = bounds.map(GeoBounds.format).joined(separator: ",")
        }
        if let center = numbers("center"), center.count == 3 {
            values["center"] = "\(GeoBounds.format(center[0])),\(GeoBounds.format(center[1])),\(Int(center[2]))"
        }
        for key in ["minzoom", "maxzoom"] {
            if let zoom = (object[key] as? NSNumber)?.intValue { values[key] = String(zoom) }
        }
        if values["format"] == nil, let template = tiles.first {
            let ext = (template as NSString).pathExtension.lowercased()
            if !ext.isEmpty { values["format"] = ext }
        }
        let schemeText = object["scheme"] as? String ?? "xyz"
        guard let scheme = TileScheme(rawValue: schemeText) else { throw refuse("unknown scheme '\(schemeText)'") }
        return Document(metadata: TileSetMetadata(values: values), scheme: scheme, tiles: tiles)
    }
}
