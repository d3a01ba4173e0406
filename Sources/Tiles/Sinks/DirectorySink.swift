import Foundation
import Raster
import Synchronization

/// How tile rows are numbered in a directory: `xyz` from the north (web maps), `tms` from the
/// south (TMS, MBTiles).
public enum TileScheme: String, Sendable, CaseIterable {
    case xyz, tms

    public func row(of tile: TileID) -> Int { self == .xyz ? tile.y : tile.tmsY }
}

/// Writes tiles as files `DIR/z/x/y.png` (or `.webp`, `.jpg`: `fileExtension`).
///
/// Each file is named only when complete, so a reader never sees half a tile and a file that
/// exists is complete: a new tile is written unnamed in its z/x folder and linked into place;
/// one that replaces a file, or any tile where the filesystem has no unnamed files, is an
/// `AtomicFile` whose temporary lives in a staging folder inside DIR (`.meridian-tmp/<job>`,
/// same filesystem) until it is renamed into place (`TileFileWriters`). A killed job leaves
/// at most the staging folder, which the next run of the same job (shard) empties first and
/// `finish` removes.
///
/// While the job runs, DIR holds a marker, `.meridian-incomplete` (`.meridian-incomplete-<job>`
/// for a shard), that only `finish` removes: a pyramid with one is not complete (the job
/// failed, was stopped or killed), and `--resume` completes it. The job also holds a lock on
/// `.meridian-tmp/<job>.lock`, so a second run of the same job (shard) into DIR is refused.
/// The files are written by `writers` threads (`TileFileWriters`), which hide the
/// filesystem's latency.
public final class DirectorySink: TileSink {
    public let root: String
    public let scheme: TileScheme
    public let fileExtension: String
    let staging: String
    /// The marker that says the pyramid is not complete.
    public let incompleteMarker: String
    private let lock: OutputLock
    private let state = Mutex(State())
    private let files: TileFileWriters
    /// DIR, open: the columns' folders are made and opened from it.
    private let rootFolder: OpenFolder

    /// What the writer changes: the columns' folders it holds open, each made (if missing)
    /// and opened once for all its tiles in a metatile row and usually far longer.
    private struct State {
        var columns: [Column: OpenFolder] = [:]
    }

    private struct Column: Hashable {
        let z: Int
        let x: Int
    }

    /// At most this many columns' folders are held open (emptied when full), so the
    /// descriptors stay few whatever the zoom: the job meets the columns in metatile rows, so
    /// a deep zoom reopens each column once a row, one call for eight or more tiles.
    static let openColumnLimit = 256

    /// The staging folder's parent inside DIR.
    public static let stagingFolder = ".meridian-tmp"

    /// The name of the marker of an incomplete pyramid written by `job`.
    public static func incompleteMarker(job: String) -> String {
        job == "job" ? ".meridian-incomplete" : ".meridian-incomplete-\(job)"
    }

    /// `job` names the staging folder (one per shard, so shards can share DIR).
    /// `writers` threads write the files.
    public init(
        root: String, scheme: TileScheme, job: String = "job", fileExtension: String = "png",
        writers: Int = TileFileWriters.defaultThreads
    )
        throws(TilesError)
    {
        self.root = root
        self.scheme = scheme
        self.fileExtension = fileExtension
        staging = "\(root)/\(DirectorySink.stagingFolder)/\(job)"
        incompleteMarker = root + "/" + DirectorySink.incompleteMarker(job: job)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .io(path: root, message: "exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: "\(root)/\(DirectorySink.stagingFolder)", withIntermediateDirectories: true)
        } catch {
            throw .io(path: root, message: "cannot create the output directory (\(error.localizedDescription))")
        }
        lock = try OutputLock(path: "\(root)/\(DirectorySink.stagingFolder)/\(job).lock", output: root)
        do {
            if FileManager.default.fileExists(atPath: staging) { try FileManager.default.removeItem(atPath: staging) }
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
            try FileIO.writeAtomically(
                Array(
                    "A meridian tiles job is writing this pyramid, or stopped before it was complete: run it again with --resume to complete it.\n"
                        .utf8),
                toPath: incompleteMarker)
            rootFolder = try OpenFolder(path: root)
        } catch {
            lock.release(removing: true)
            throw .io(path: root, message: "cannot prepare the output directory (\(error))")
        }
        files = TileFileWriters(threads: writers, staging: staging)
    }

    deinit {
        try? files.finish()  // a sink dropped without `finish`: its threads end
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
        try state.withLock { state throws(TilesError) in
            var batch: [TileFileWriters.Pending] = []
            batch.reserveCapacity(tiles.count)
            for tile in tiles {
                let column = Column(z: tile.tile.z, x: tile.tile.x)
                let folder: OpenFolder
                if let open = state.columns[column] {
                    folder = open
                } else {
                    if state.columns.count >= Self.openColumnLimit { state.columns.removeAll() }
                    do throws(FileError) {
                        folder = try rootFolder.subfolder("\(column.z)/\(column.x)", create: true)
                    } catch {
                        throw .io(path: error.path, message: "cannot create the folder (\(error.reason))")
                    }
                    state.columns[column] = folder
                }
                batch.append(
                    .init(folder: folder, name: "\(scheme.row(of: tile.tile)).\(fileExtension)", data: tile.data))
            }
            try files.submit(batch)
        }
    }

    /// The pyramid is complete: the staging folder, the marker and the lock go.
    public func finish() throws {
        try removeStaging()
        if unlink(incompleteMarker) != 0 && errno != ENOENT {
            throw TilesError.io(
                path: incompleteMarker, message: "cannot remove it (\(String(cString: strerror(errno))))")
        }
    }

    /// The job failed or was stopped: the tiles written stay, and so does the marker.
    public func abandon() throws {
        try removeStaging()
    }

    public func discard() throws {
        try abandon()
    }

    /// Waits for the writer threads (no file may be written into a removed staging folder),
    /// tidies up, then throws the first failed write, if any.
    private func removeStaging() throws(TilesError) {
        var failedWrite: TilesError?
        do throws(TilesError) { try files.finish() } catch { failedWrite = error }
        defer {
            lock.release(removing: true)
            rmdir("\(root)/\(DirectorySink.stagingFolder)")  // only when no other shard is using it
        }
        do { try FileManager.default.removeItem(atPath: staging) } catch {
            throw .io(path: staging, message: "cannot remove the staging folder (\(error.localizedDescription))")
        }
        if let failedWrite { throw failedWrite }
    }

    public var statistics: SinkStatistics {
        files.statistics
    }
}
