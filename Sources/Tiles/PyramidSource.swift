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

    /// Every z/x/y.png tile id, sorted. Names that are not tile numbers are passed over; a
    /// folder that cannot be read is an error (an unreadable pyramid is not an empty one).
    public func tileIDs() throws -> [TileID] {
        var ids: [TileID] = []
        for zName in try entries(root) {
            guard let z = Int(zName), (0...ZoomRange.deepest).contains(z) else { continue }
            let zFolder = "\(root)/\(zName)"
            guard try isFolder(zFolder) else { continue }
            for xName in try entries(zFolder) {
                guard let x = Int(xName), x >= 0, x < 1 << z else { continue }
                let xFolder = "\(zFolder)/\(xName)"
                guard try isFolder(xFolder) else { continue }
                for file in try entries(xFolder) {
                    guard file.hasSuffix(".png"), let row = Int(file.dropLast(4)), row >= 0, row < 1 << z else {
                        continue
                    }
                    ids.append(scheme == .xyz ? TileID(z: z, x: x, y: row) : TileID(z: z, x: x, tmsY: row))
                }
            }
        }
        return ids.sorted()
    }

    private func entries(_ folder: String) throws(TilesError) -> [String] {
        do { return try FileIO.folderEntries(atPath: folder) } catch {
            throw .io(path: folder, message: "cannot list the folder: \(error.reason)")
        }
    }

    private func isFolder(_ path: String) throws(TilesError) -> Bool {
        do { return try FileIO.isFolder(atPath: path) } catch { throw .io(path: path, message: error.reason) }
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
