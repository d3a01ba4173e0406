import Foundation

/// The description of a tile set: MBTiles 1.3's `metadata` table (name, format, bounds,
/// center, minzoom, maxzoom, type, attribution) plus one key of ours, `meridian`, that records
/// the options that change tile pixels, so a resumed job can refuse a file made differently.
/// Every value is derived from the job's options, never from the clock or the machine, so an
/// interrupted and resumed job writes the same metadata as an uninterrupted one, and every
/// shard of a job writes the same metadata (which `merge` then keeps).
public struct TileSetMetadata: Sendable, Equatable {
    public var values: [String: String]

    public init(values: [String: String]) {
        self.values = values
    }

    /// The metadata of a job rendering `pyramid` from a map called `name`.
    public init(
        name: String, attribution: String?, pyramid: TilePyramid, format: TileFormat, buffer: Int,
        imageFormat: TileImageFormat = .png
    ) {
        let b = pyramid.bounds
        let center =
            "\(GeoBounds.format((b.west + b.east) / 2)),\(GeoBounds.format((b.south + b.north) / 2)),\(pyramid.zooms.min)"
        values = [
            "name": name,
            "format": imageFormat.metadataFormat,
            "bounds": b.metadataText,
            "center": center,
            "minzoom": String(pyramid.zooms.min),
            "maxzoom": String(pyramid.zooms.max),
            "type": "baselayer",
            "meridian": "tile-size=\(format.tileSize) scale=\(format.pixelRatio) buffer=\(buffer)",
        ]
        if let attribution, !attribution.isEmpty { values["attribution"] = attribution }
        if let options = imageFormat.metadataOptions { values["meridian"]! += " " + options }
    }

    /// The keys that must agree for a resumed job to continue a file.
    static let identityKeys = ["format", "bounds", "minzoom", "maxzoom", "meridian"]

    /// The metadata of several tile sets joined: the first one's, with bounds that hold every
    /// set's and the widest zoom range (the centre follows the bounds). Sets that agree (the
    /// shards of one job) give exactly their own metadata.
    static func merged(_ sets: [TileSetMetadata], paths: [String]) throws(TilesError) -> TileSetMetadata {
        guard var result = sets.first else { return TileSetMetadata(values: [:]) }
        for (set, path) in zip(sets.dropFirst(), paths.dropFirst()) where set != result {
            if set.values["format"] != result.values["format"] {
                throw .incompatibleOutput(
                    path: path,
                    message:
                        "its tile format '\(set.values["format"] ?? "none")' differs from '\(result.values["format"] ?? "none")' in \(paths[0])"
                )
            }
            if let a = result.bounds, let b = set.bounds {
                let joined = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                if joined != a {
                    result.values["bounds"] = joined.map(GeoBounds.format).joined(separator: ",")
                    result.values["center"] = nil
                }
            }
            if let a = Int(result.values["minzoom"] ?? ""), let b = Int(set.values["minzoom"] ?? ""), b < a {
                result.values["minzoom"] = String(b)
                result.values["center"] = nil
            }
            if let a = Int(result.values["maxzoom"] ?? ""), let b = Int(set.values["maxzoom"] ?? ""), b > a {
                result.values["maxzoom"] = String(b)
            }
        }
        if result.values["center"] == nil, let b = result.bounds {
            result.values["center"] =
                "\(GeoBounds.format((b[0] + b[2]) / 2)),\(GeoBounds.format((b[1] + b[3]) / 2)),\(result.values["minzoom"] ?? "0")"
        }
        return result
    }

    var bounds: [Double]? {
        guard let text = values["bounds"] else { return nil }
        let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return numbers.count == 4 ? numbers : nil
    }
}
