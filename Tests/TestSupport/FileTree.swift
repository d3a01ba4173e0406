import Foundation
import Raster

/// What a folder holds, read for comparison. A folder that is missing or cannot be read is an
/// error, never an empty tree: two unreadable tile directories must not compare equal.
public enum FileTree {
    /// Every regular file under `root`: path relative to `root` -> bytes.
    public static func files(under root: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for entry in try entries(under: root, live: false) where !entry.isDirectory {
            result[entry.path] = try FileIO.readBytes(atPath: root + "/" + entry.path)
        }
        return result
    }

    /// The tiles of a directory pyramid: the files at z/x/y.EXT (path -> bytes), not what
    /// lies beside them (tiles.json, the viewer page, Leaflet, the layer without the grid).
    public static func tiles(under root: String) throws -> [String: [UInt8]] {
        try files(under: root).filter { path, _ in
            let parts = path.split(separator: "/")
            return parts.count == 3 && Int(parts[0]) != nil && Int(parts[1]) != nil
        }
    }

    /// Every file and folder under `root`, relative to it, parents before their contents.
    public static func paths(under root: String) throws -> [String] {
        try entries(under: root, live: false).map(\.path)
    }

    /// As `paths`, for a folder that a running job is writing: what vanishes while it is
    /// listed (a staging file renamed, a folder removed, `root` not made yet) is left out.
    /// Any other failure still throws.
    public static func livePaths(under root: String) throws -> [String] {
        try entries(under: root, live: true).map(\.path)
    }

    /// Every folder under `root` (not `root` itself), relative to it, as `livePaths` sees them.
    public static func liveFolders(under root: String) throws -> [String] {
        try entries(under: root, live: true).filter(\.isDirectory).map(\.path)
    }

    private struct Entry {
        let path: String
        let isDirectory: Bool
    }

    /// A depth-first walk by name. `contentsOfDirectory` throws where a folder cannot be read
    /// (FileManager's enumerator would skip it silently).
    private static func entries(under root: String, prefix: String = "", live: Bool) throws -> [Entry] {
        let folder = prefix.isEmpty ? root : root + "/" + prefix
        var result: [Entry] = []
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch  where live && !FileManager.default.fileExists(atPath: folder) {
            return []
        }
        for name in names {
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            let path = root + "/" + relative
            let type: FileAttributeType?
            do {
                type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            } catch  where live && !FileManager.default.fileExists(atPath: path) {
                continue
            }
            let isDirectory = type == .typeDirectory
            result.append(Entry(path: relative, isDirectory: isDirectory))
            if isDirectory { result += try entries(under: root, prefix: relative, live: live) }
        }
        return result
    }
}
