import Foundation

/// What `-o PATH` names: a directory pyramid, an MBTiles file or a PMTiles archive, told by
/// the extension. Any other extension is refused rather than taken for a directory (which
/// once turned `-o x.pmtiles` quietly into a folder of that name).
public enum TileOutputKind: Sendable, Equatable {
    case directory, mbtiles, pmtiles

    public init(path: String) throws(TilesError) {
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/") || ext.isEmpty
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            self = .directory
        } else if ext == "mbtiles" {
            self = .mbtiles
        } else if ext == "pmtiles" {
            self = .pmtiles
        } else {
            throw .invalidArgument(
                "-o \(path): '.\(ext)' is not an output meridian writes: give FILE.mbtiles, FILE.pmtiles or a directory (a name without an extension, or ending in /)"
            )
        }
    }
}
