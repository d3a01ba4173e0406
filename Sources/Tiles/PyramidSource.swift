import Foundation
import Raster

/// A tile set to read: a directory of z/x/y files, an MBTiles file or a PMTiles archive.
public protocol PyramidSource: AnyObject {
    /// Where the tiles are, for messages.
    var location: String { get }
    /// Every tile id, sorted.
    func tileIDs() throws -> [TileID]
    /// The stored bytes of a tile, nil when absent.
    func tileData(_ id: TileID) throws -> [UInt8]?
    /// The tile set's description (MBTiles metadata; a directory's from its `tiles.json`).
    func metadata() throws -> TileSetMetadata
    /// Calls `body` with every tile and its bytes, in the source's own order.
    func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws
}

extension PyramidSource {
    public func forEachTile(_ body: (TileID, [UInt8]) throws -> Void) throws {
        for id in try tileIDs() {
            if let data = try tileData(id) { try body(id, data) }
        }
    }
}

/// Opens `path` as a tile set: a file ending in .mbtiles or .pmtiles, or a directory. A
/// directory's row scheme and tile format come from its `tiles.json` when it has one;
/// `scheme` overrides the first.
public func openPyramid(_ path: String, scheme: TileScheme? = nil) throws -> any PyramidSource {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists && isDirectory.boolValue { return try DirectoryPyramid(opening: path, scheme: scheme) }
    guard exists else { throw TilesError.io(path: path, message: "no such file or directory") }
    if path.lowercased().hasSuffix(".pmtiles") { return try PMTilesReader(path: path) }
    return try MBTilesReader(path: path)
}

/// The tiles of a directory written by `meridian tiles` (or any z/x/y.png layout).
public final class DirectoryPyramid: PyramidSource, Sendable {
    public let root: String
    public let scheme: TileScheme
    /// The tile files' extension: `png`, `webp` or `jpg`.
    public let fileExtension: String
    /// The directory's `tiles.json`, read when it was opened; nil when it has none.
    let tileJSON: TileSetMetadata?

    public init(root: String, scheme: TileScheme = .xyz, fileExtension: String = "png") {
        self.root = root
        self.scheme = scheme
        self.fileExtension = fileExtension
        tileJSON = nil
    }

    /// Reads `root/tiles.json` when there is one (scheme and format); without one the tiles
    /// are taken to be PNG, or the format of the first tile file found.
    public init(opening root: String, scheme: TileScheme? = nil) throws {
        self.root = root
        let tileJSONPath = root + "/" + TileJSON.fileName
        if FileManager.default.fileExists(atPath: tileJSONPath) {
            let document = try TileJSON.read(tileJSONPath)
            tileJSON = document.metadata
            self.scheme = scheme ?? document.scheme
            fileExtension = document.metadata.values["format"] ?? "png"
        } else {
            tileJSON = nil
            self.scheme = scheme ?? .xyz
            fileExtension = try DirectoryPyramid.firstTileExtension(under: root) ?? "png"
        }
    }

    public var location: String { root }

    /// The extension of the first file found at z/x/NAME.EXT, if any.
    private static func firstTileExtension(under root: String) throws -> String? {
        for z in try entries(root).sorted() where Int(z) != nil {
            guard try isFolder("\(root)/\(z)") else { continue }
            for x in try entries("\(root)/\(z)").sorted() where Int(x) != nil {
                guard try isFolder("\(root)/\(z)/\(x)") else { continue }
                for file in try entries("\(root)/\(z)/\(x)").sorted() {
                    let ext = (file as NSString).pathExtension.lowercased()
                    if ["png", "webp", "jpg"].contains(ext) { return ext }
                }
            }
        }
        return nil
    }

    /// Every z/x/y tile id with this pyramid's extension, sorted. Names that are not tile
    /// numbers are passed over; a folder that cannot be read is an error (an unreadable
    /// pyramid is not an empty one).
    public func tileIDs() throws -> [TileID] {
        var ids: [TileID] = []
        let suffix = "." + fileExtension
        for zName in try Self.entries(root) {
            guard let z = Int(zName), (0...ZoomRange.deepest).contains(z) else { continue }
            let zFolder = "\(root)/\(zName)"
            guard try Self.isFolder(zFolder) else { continue }
            for xName in try Self.entries(zFolder) {
                guard let x = Int(xName), x >= 0, x < 1 << z else { continue }
                let xFolder = "\(zFolder)/\(xName)"
                guard try Self.isFolder(xFolder) else { continue }
                for file in try Self.entries(xFolder) {
                    guard file.hasSuffix(suffix), let row = Int(file.dropLast(suffix.count)), row >= 0, row < 1 << z
                    else {
                        continue
                    }
                    ids.append(scheme == .xyz ? TileID(z: z, x: x, y: row) : TileID(z: z, x: x, tmsY: row))
                }
            }
        }
        return ids.sorted()
    }

    private static func entries(_ folder: String) throws(TilesError) -> [String] {
        do { return try FileIO.folderEntries(atPath: folder) } catch {
            throw .io(path: folder, message: "cannot list the folder: \(error.reason)")
        }
    }

    private static func isFolder(_ path: String) throws(TilesError) -> Bool {
        do { return try FileIO.isFolder(atPath: path) } catch { throw .io(path: path, message: error.reason) }
    }

    public func path(of id: TileID) -> String {
        "\(root)/\(id.z)/\(id.x)/\(scheme.row(of: id)).\(fileExtension)"
    }

    public func tileData(_ id: TileID) throws -> [UInt8]? {
        let path = path(of: id)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do { return try FileIO.readBytes(atPath: path) } catch {
            throw TilesError.io(path: path, message: error.reason)
        }
    }

    /// The `tiles.json` metadata; without one, what the tiles themselves say: the folder's
    /// name, the format, the zoom range, and the bounds of the deepest zoom's tiles.
    public func metadata() throws -> TileSetMetadata {
        if let tileJSON { return tileJSON }
        return TileSetMetadata(
            inferredFrom: try tileIDs(), name: (root as NSString).lastPathComponent, format: fileExtension)
    }
}

/// The IDs a walk over a tile set's IDs gives, sorted.
private func sortedTileIDs(_ walk: ((TileID) throws -> Void) throws -> Void) throws -> [TileID] {
    var ids: [TileID] = []
    try walk { ids.append($0) }
    return ids.sorted()
}

extension MBTilesReader: PyramidSource {
    public var location: String { path }

    public func tileIDs() throws -> [TileID] { try sortedTileIDs(forEachTileID) }

    public func tileData(_ id: TileID) throws -> [UInt8]? { try tile(id) }
}

extension PMTilesReader: PyramidSource {
    public var location: String { path }

    public func tileIDs() throws -> [TileID] { try sortedTileIDs(forEachTileID) }

    public func tileData(_ id: TileID) throws -> [UInt8]? { try tile(id) }

    /// The archive's JSON metadata (string values kept, numbers written as text), with the
    /// format, zooms, bounds and centre taken from the header, which is what readers use.
    public func metadata() throws -> TileSetMetadata {
        var values: [String: String] = [:]
        let json = try metadataJSON()
        if !json.isEmpty {
            let parsed = try? JSONSerialization.jsonObject(with: Data(json))
            guard let object = parsed as? [String: Any] else {
                throw PMTilesError(
                    path: path, offset: header.metadataOffset, problem: "the metadata is not a JSON object")
            }
            for (key, value) in object {
                if let text = value as? String {
                    values[key] = text
                } else if let number = value as? NSNumber {
                    values[key] = number.stringValue
                }
            }
        }
        let h = header
        switch h.tileType {
        case .png: values["format"] = "png"
        case .jpeg: values["format"] = "jpg"
        case .webp: values["format"] = "webp"
        case .mvt: values["format"] = "pbf"
        case .avif: values["format"] = "avif"
        case .unknown: break
        }
        values["minzoom"] = String(h.minZoom)
        values["maxzoom"] = String(h.maxZoom)
        func degrees(_ e7: Int32) -> String { GeoBounds.format(Double(e7) / 10_000_000) }
        values["bounds"] = [h.minLongitudeE7, h.minLatitudeE7, h.maxLongitudeE7, h.maxLatitudeE7].map(degrees)
            .joined(separator: ",")
        values["center"] = "\(degrees(h.centerLongitudeE7)),\(degrees(h.centerLatitudeE7)),\(h.centerZoom)"
        return TileSetMetadata(values: values)
    }
}
