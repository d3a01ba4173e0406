import Foundation
import Geodesy

/// The description of a tile set: MBTiles 1.3's `metadata` table (name, format, bounds,
/// center, minzoom, maxzoom, type, attribution, description, version) plus one key of ours,
/// `meridian`, that records the options that change tile pixels, so a resumed job can refuse
/// a file made differently. Every value is derived from the job's options, never from the
/// clock or the machine, so an interrupted and resumed job writes the same metadata as an
/// uninterrupted one, and every shard of a job writes the same metadata (which `merge` then
/// keeps).
public struct TileSetMetadata: Sendable, Equatable {
    public var values: [String: String]

    public init(values: [String: String]) {
        self.values = values
    }

    /// What a tile set shows: a `baselayer` covers the map (an opaque background), an
    /// `overlay` is drawn over another map (a transparent one).
    public enum LayerType: String, Sendable {
        case baselayer, overlay
    }

    /// The MBTiles `version` written unless a job names one: the tile set's own revision,
    /// which only its maker can count.
    public static let defaultVersion = "1.0.0"

    /// The metadata of a job rendering `pyramid` from a map called `name`.
    public init(
        name: String, attribution: String?, pyramid: TilePyramid, format: TileFormat, buffer: Int,
        imageFormat: TileImageFormat = .png, type: LayerType = .baselayer, description: String? = nil,
        version: String = TileSetMetadata.defaultVersion
    ) {
        let b = pyramid.bounds
        values = [
            "name": name,
            "format": imageFormat.metadataFormat,
            "bounds": b.metadataText,
            "center": Self.center(
                bounds: [b.west, b.south, b.east, b.north], zooms: pyramid.zooms.levels, tileSize: format.tileSize),
            "minzoom": String(pyramid.zooms.min),
            "maxzoom": String(pyramid.zooms.max),
            "type": type.rawValue,
            "description": description
                ?? "\(name): \(imageFormat.metadataFormat.uppercased()) map tiles, zoom \(pyramid.zooms), rendered by Meridian",
            "version": version,
            "meridian": "tile-size=\(format.tileSize) scale=\(format.pixelRatio) buffer=\(buffer)",
        ]
        if let attribution, !attribution.isEmpty { values["attribution"] = attribution }
        if let options = imageFormat.metadataOptions { values["meridian"]! += " " + options }
    }

    /// The keys that must agree for a resumed job to continue a file.
    static let identityKeys = ["format", "bounds", "minzoom", "maxzoom", "meridian"]

    /// The first key that says `other` holds different tiles (another zoom range, bounds,
    /// format, tile size, buffer), with its value there and here; nil when they agree.
    public func identityDifference(from other: TileSetMetadata) -> (key: String, found: String?, expected: String?)? {
        for key in Self.identityKeys where other.values[key] != values[key] {
            return (key, other.values[key], values[key])
        }
        return nil
    }

    /// How wide a view the `center` zoom is chosen for, in CSS pixels: four 256 px tiles.
    public static let centerViewPixels = 1024.0

    /// The MBTiles `center`: the middle of the bounds, at the deepest zoom of `zooms` at which
    /// the bounds fit in a view `centerViewPixels` wide and high, so a viewer opening there
    /// shows the whole tile set (the lowest zoom when even that one is too deep).
    static func center(bounds b: [Double], zooms: ClosedRange<Int>, tileSize: Int) -> String {
        let west = WebMercator.x(longitude: b[0])
        let east = WebMercator.x(longitude: b[2])
        let south = WebMercator.y(latitude: max(b[1], -WebMercator.maxLatitude))
        let north = WebMercator.y(latitude: min(b[3], WebMercator.maxLatitude))
        let span = max(east - west, north - south) / (2 * WebMercator.halfWorld)  // of the world's width
        var zoom = zooms.lowerBound
        while zoom < zooms.upperBound, span * Double(tileSize << (zoom + 1)) <= centerViewPixels { zoom += 1 }
        return "\(GeoBounds.format((b[0] + b[2]) / 2)),\(GeoBounds.format((b[1] + b[3]) / 2)),\(zoom)"
    }

    /// The tile size recorded in the `meridian` key (256 when there is none: another tool's).
    var tileSize: Int {
        let words = (values["meridian"] ?? "").split(separator: " ")
        return words.first { $0.hasPrefix("tile-size=") }.flatMap { Int($0.dropFirst("tile-size=".count)) } ?? 256
    }

    /// What `merge` needs the inputs to agree on: the format, and the tile size and pixel
    /// ratio (a file of 256 px tiles and one of 512 px tiles cannot be one tile set).
    static func tileShape(_ metadata: TileSetMetadata) -> String {
        let words = (metadata.values["meridian"] ?? "").split(separator: " ")
        let size = words.filter { $0.hasPrefix("tile-size=") || $0.hasPrefix("scale=") }.joined(separator: " ")
        return "format '\(metadata.values["format"] ?? "none")'" + (size.isEmpty ? "" : ", \(size)")
    }

    /// The metadata of several tile sets joined: the first one's, with bounds that hold every
    /// set's and the widest zoom range (the centre follows the bounds). Sets that agree (the
    /// shards of one job) give exactly their own metadata. Sets whose tiles differ in format,
    /// size or pixel ratio are refused.
    static func merged(_ sets: [TileSetMetadata], paths: [String]) throws(TilesError) -> TileSetMetadata {
        guard var result = sets.first else { return TileSetMetadata(values: [:]) }
        var widened = false
        for (set, path) in zip(sets.dropFirst(), paths.dropFirst()) where set != result {
            if tileShape(set) != tileShape(result) {
                throw .incompatibleOutput(
                    path: path,
                    message:
                        "its tiles (\(tileShape(set))) differ from those of \(paths[0]) (\(tileShape(result))): they cannot be one tile set"
                )
            }
            if let a = result.bounds, let b = set.bounds {
                let joined = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                if joined != a {
                    result.values["bounds"] = joined.map(GeoBounds.format).joined(separator: ",")
                    widened = true
                }
            }
            if let a = Int(result.values["minzoom"] ?? ""), let b = Int(set.values["minzoom"] ?? ""), b < a {
                result.values["minzoom"] = String(b)
                widened = true
            }
            if let a = Int(result.values["maxzoom"] ?? ""), let b = Int(set.values["maxzoom"] ?? ""), b > a {
                result.values["maxzoom"] = String(b)
                widened = true
            }
        }
        if widened || result.values["center"] == nil, let b = result.bounds, let zooms = result.zooms {
            result.values["center"] = center(bounds: b, zooms: zooms, tileSize: result.tileSize)
        }
        return result
    }

    /// What the tiles themselves say, for a directory without a `tiles.json`: `name`, the
    /// format, the zoom range, and the bounds of the deepest zoom's tiles.
    init(inferredFrom tiles: [TileID], name: String, format: String) {
        values = ["name": name, "format": format, "type": LayerType.baselayer.rawValue]
        guard let minZoom = tiles.map(\.z).min(), let maxZoom = tiles.map(\.z).max() else { return }
        let deepest = tiles.filter { $0.z == maxZoom }
        let n = Double(1 << maxZoom)
        func longitude(_ x: Int) -> Double { Double(x) / n * 360 - 180 }
        func latitude(_ y: Int) -> Double {
            WebMercator.latitude(y: WebMercator.halfWorld * (1 - 2 * Double(y) / n))
        }
        let bounds = [
            longitude(deepest.map(\.x).min()!), latitude(deepest.map(\.y).max()! + 1),
            longitude(deepest.map(\.x).max()! + 1), latitude(deepest.map(\.y).min()!),
        ]
        values["minzoom"] = String(minZoom)
        values["maxzoom"] = String(maxZoom)
        values["bounds"] = bounds.map(GeoBounds.format).joined(separator: ",")
        values["center"] = Self.center(bounds: bounds, zooms: minZoom...maxZoom, tileSize: 256)
    }

    var bounds: [Double]? {
        guard let text = values["bounds"] else { return nil }
        let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return numbers.count == 4 ? numbers : nil
    }

    var zooms: ClosedRange<Int>? {
        guard let min = Int(values["minzoom"] ?? ""), let max = Int(values["maxzoom"] ?? ""), min <= max else {
            return nil
        }
        return min...max
    }
}
