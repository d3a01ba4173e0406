import Foundation
import Raster
import Synchronization

/// How tile rows are numbered in a directory: `xyz` from the north (web maps), `tms` from the
/// south (TMS, MBTiles).
public enum TileScheme: String, Sendable, CaseIterable {
    case xyz, tms

    public func row(of tile: TileID) -> Int { self == .xyz ? tile.y : tile.tmsY }
}

/// Writes tiles as files `DIR/z/x/y.png`.
///
/// Each file is an `AtomicFile` whose temporary lives in a staging folder inside DIR
/// (`.meridian-tmp/<job>`, same filesystem) until it is renamed into place, so a reader never
/// sees half a tile and a file that exists is complete. A killed job leaves at most the
/// staging folder, which the next run of the same job (shard) empties first and `finish`
/// removes. The files are written by `writers` threads (`TileFileWriters`), which hide the
/// filesystem's latency.
public final class DirectorySink: TileSink {
    public let root: String
    public let scheme: TileScheme
    let staging: String
    private let state = Mutex(State())
    private let files: TileFileWriters

    /// What the writer changes: the folders it knows exist (the current zoom's only, so the
    /// set stays as small as one zoom's columns).
    private struct State {
        var madeFolders = Set<String>()
        var madeZoom = -1
    }

    /// The staging folder's parent inside DIR.
    public static let stagingFolder = ".meridian-tmp"

    /// `job` names the staging folder (one per shard, so shards can share DIR).
    /// `writers` threads write the files.
    public init(root: String, scheme: TileScheme, job: String = "job", writers: Int = TileFileWriters.defaultThreads)
        throws(TilesError)
    {
        self.root = root
        self.scheme = scheme
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
        files = TileFileWriters(threads: writers, staging: staging)
    }

    deinit {
        try? files.finish()  // a sink dropped without `finish`: its threads end
    }

    public func path(of tile: TileID) -> String {
        "\(root)/\(tile.z)/\(tile.x)/\(scheme.row(of: tile)).png"
    }

    public func storedTiles(in metatile: Metatile) throws -> Set<TileID> {
        var found = Set<TileID>()
        for tile in metatile.tiles where access(path(of: tile), F_OK) == 0 { found.insert(tile) }
        return found
    }

    public func write(_ tiles: [EncodedTile]) throws {
        try state.withLock { state throws(TilesError) in
            for tile in tiles {
                let folder = "\(root)/\(tile.tile.z)/\(tile.tile.x)"
                if tile.tile.z != state.madeZoom {
                    state.madeFolders.removeAll()
                    state.madeZoom = tile.tile.z
                }
                if !state.madeFolders.contains(folder) {
                    do {
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    } catch {
                        throw .io(path: folder, message: "cannot create the folder (\(error.localizedDescription))")
                    }
                    state.madeFolders.insert(folder)
                }
                try files.submit(path: path(of: tile.tile), data: tile.data)
            }
        }
    }

    public func finish() throws {
        // Every queued tile is written, or the first failure is thrown after tidying up.
        var failedWrite: TilesError?
        do throws(TilesError) { try files.finish() } catch { failedWrite = error }
        do { try FileManager.default.removeItem(atPath: staging) } catch {
            throw TilesError.io(
                path: staging, message: "cannot remove the staging folder (\(error.localizedDescription))")
        }
        rmdir("\(root)/\(DirectorySink.stagingFolder)")  // only when no other shard is using it
        if let failedWrite { throw failedWrite }
    }

    public var statistics: SinkStatistics {
        files.statistics
    }
}
