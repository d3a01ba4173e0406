import Foundation
import Raster

/// A tile pyramid to read: a directory of z/x/y.png files or an MBTiles file.
public protocol PyramidSource: AnyObject {
    /// Where the tiles are, for messages.
    var location: String { get }
    /// Every tile id, sorted.
    func tileIDs() throws -> [TileID]
    /// The stored bytes of a tile, nil when absent.
    func tileData(_ id: TileID) throws -> [UInt8]?
}

/// Opens `path` as a pyramid: a file ending in .mbtiles, or a directory.
public func openPyramid(_ path: String, scheme: TileScheme = .xyz) throws -> any PyramidSource {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists && isDirectory.boolValue { return DirectoryPyramid(root: path, scheme: scheme) }
    guard exists else { throw TilesError.io(path: path, message: "no such file or directory") }
    return try MBTilesReader(path: path)
}

/// The tiles of a directory written by `meridian tiles` (or any z/x/y.png layout).
public final class DirectoryPyramid: PyramidSource {
    public let root: String
    public let scheme: TileScheme

    public init(root: String, scheme: TileScheme = .xyz) {
        self.root = root
        self.scheme = scheme
    }

    public var location: String { root }

    public func tileIDs() throws -> [TileID] {
        var ids: [TileID] = []
        let manager = FileManager.default
        for zName in (try? manager.contentsOfDirectory(atPath: root)) ?? [] {
            guard let z = Int(zName), (0...ZoomRange.deepest).contains(z) else { continue }
            for xName in (try? manager.contentsOfDirectory(atPath: "\(root)/\(zName)")) ?? [] {
                guard let x = Int(xName), x >= 0, x < 1 << z else { continue }
                for file in (try? manager.contentsOfDirectory(atPath: "\(root)/\(zName)/\(xName)")) ?? [] {
                    guard file.hasSuffix(".png"), let row = Int(file.dropLast(4)), row >= 0, row < 1 << z else {
                        continue
                    }
                    ids.append(scheme == .xyz ? TileID(z: z, x: x, y: row) : TileID(z: z, x: x, tmsY: row))
                }
            }
        }
        return ids.sorted()
    }

    public func tileData(_ id: TileID) throws -> [UInt8]? {
        let path = "\(root)/\(id.z)/\(id.x)/\(scheme.row(of: id)).png"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do { return try FileIO.readBytes(atPath: path) } catch {
            throw TilesError.io(path: path, message: error.reason)
        }
    }
}

extension MBTilesReader: PyramidSource {
    public var location: String { path }

    public func tileIDs() throws -> [TileID] {
        var ids: [TileID] = []
        try forEachTileID { ids.append($0) }
        return ids.sorted()
    }

    public func tileData(_ id: TileID) throws -> [UInt8]? { try tile(id) }
}
