import Foundation

/// How tile rows are numbered in a directory: `xyz` from the north (web maps), `tms` from the
/// south (TMS, MBTiles).
public enum TileScheme: String, Sendable, CaseIterable {
    case xyz, tms

    public func row(of tile: TileID) -> Int { self == .xyz ? tile.y : tile.tmsY }
}

/// Writes tiles as files `DIR/z/x/y.png` (or `.webp`, `.jpg`: `fileExtension`).
///
/// Each file is written under a temporary name in a staging folder inside DIR
/// (`.meridian-tmp/<job>`, same filesystem) and renamed into place, so a reader never sees
/// half a tile and a file that exists is complete. A killed job leaves at most the staging
/// folder, which the next run of the same job (shard) empties first and `finish` removes.
public final class DirectorySink: TileSink, @unchecked Sendable {
    public let root: String
    public let scheme: TileScheme
    public let fileExtension: String
    let staging: String
    // Counters and the folder cache are used by the writer thread only; `storedTiles` touches
    // neither, so only `stats` (read by the progress display) needs the lock.
    private let lock = NSLock()
    private var stats = SinkStatistics()
    private var madeFolders = Set<String>()
    private var madeZoom = -1
    private var counter = 0

    /// The staging folder's parent inside DIR.
    public static let stagingFolder = ".meridian-tmp"

    /// `job` names the staging folder (one per shard, so shards can share DIR).
    public init(root: String, scheme: TileScheme, job: String = "job", fileExtension: String = "png")
        throws(TilesError)
    {
        self.root = root
        self.scheme = scheme
        self.fileExtension = fileExtension
        staging = "\(root)/\(DirectorySink.stagingFolder)/\(job)"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .io(path: root, message: "exists and is not a directory")
        }
        do {
            if FileManager.default.fileExists(atPath: staging) { try FileManager.default.removeItem(atPath: staging) }
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        } catch {
            throw .io(path: root, message: "cannot create the output directory (\(error.localizedDescription))")
        }
    }

    public func path(of tile: TileID) -> String {
        "\(root)/\(tile.z)/\(tile.x)/\(scheme.row(of: tile)).\(fileExtension)"
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> {
        var found = Set<TileID>()
        for tile in metatile.tiles where access(path(of: tile), F_OK) == 0 { found.insert(tile) }
        return found
    }

    public func write(_ tiles: [EncodedTile]) throws {
        for tile in tiles {
            let folder = "\(root)/\(tile.tile.z)/\(tile.tile.x)"
            if tile.tile.z != madeZoom {
                madeFolders.removeAll()  // keeps the cache as small as one zoom's columns
                madeZoom = tile.tile.z
            }
            if !madeFolders.contains(folder) {
                do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch
                {
                    throw TilesError.io(
                        path: folder, message: "cannot create the folder (\(error.localizedDescription))")
                }
                madeFolders.insert(folder)
            }
            counter += 1
            let temporary = "\(staging)/\(counter).png"
            let final = path(of: tile.tile)
            try Self.writeFile(tile.data, to: temporary, reportingAs: final)
            guard rename(temporary, final) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw TilesError.io(path: final, message: "cannot rename the tile into place (\(reason))")
            }
            lock.lock()
            stats.tiles += 1
            stats.bytes += tile.data.count
            lock.unlock()
        }
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, reportingAs name: String) throws(TilesError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .io(path: name, message: "cannot write the tile (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw .io(path: name, message: "cannot write the tile (\(reason))")
            }
            written += n
        }
    }

    public func finish() throws {
        try? FileManager.default.removeItem(atPath: staging)
        rmdir("\(root)/\(DirectorySink.stagingFolder)")  // only when no other shard is using it
    }

    public var statistics: SinkStatistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }
}
