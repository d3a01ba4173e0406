import Foundation
import Raster
import Tiles

/// The outputs of the commands that write tile sets (`tiles`, `convert`, `merge`): a sink for
/// each kind, the checks made before any work, and what a failed job says about resuming.
enum TileOutputs {
    /// Refuses, before any work, an output that cannot be written: a file output that is a
    /// directory (or a device, a link) or whose folder is missing; a directory output that is
    /// a file.
    static func checkWritable(_ output: String, kind: TileArchiveKind) throws {
        switch kind {
        case .directory:
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw OutputError("\(output): exists and is not a directory")
            }
        case .mbtiles, .pmtiles:
            for path in [output, MBTilesSink.stagingPath(for: output)] {
                do { try AtomicFile.checkTarget(path) } catch { throw OutputError("\(error)") }
            }
            let folder = (output as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                throw OutputError("\(output): the folder \(folder) does not exist")
            }
        }
    }

    /// The sink that writes `kind` at `output`; `job` names a directory's staging folder
    /// (shards of one job into one directory each have their own).
    static func sink(
        _ output: String, kind: TileArchiveKind, metadata: TileSetMetadata, resume: Bool,
        scheme: TileScheme = .xyz, job: String = "job"
    ) throws -> any TileSink {
        switch kind {
        case .mbtiles: return try MBTilesSink(path: output, metadata: metadata, resume: resume)
        case .pmtiles: return try PMTilesSink(path: output, metadata: metadata, resume: resume)
        case .directory:
            return try DirectorySink(
                root: output, scheme: scheme, job: job, fileExtension: metadata.values["format"] ?? "png")
        }
    }

    /// What a failed job's error line adds: where the work done so far is, and how to go on.
    static func resumeHint(_ sink: any TileSink) -> String {
        switch sink {
        case let sink as DirectorySink:
            return
                "\(sink.root) is incomplete (\((sink.incompleteMarker as NSString).lastPathComponent)): run the same command with --resume to complete it"
        case let sink as MBTilesSink:
            return "the tiles made so far are in \(sink.stagingPath): run the same command with --resume to continue"
        case let sink as PMTilesSink:
            return "the tiles made so far are in \(sink.stagingPath): run the same command with --resume to continue"
        default:
            return "run the same command with --resume to continue"
        }
    }
}

/// An output that cannot be written: exit status 1.
struct OutputError: Error, CustomStringConvertible, ExitStatusProviding {
    let description: String
    init(_ message: String) { description = message }
    var exitStatus: Int32 { 1 }
}

/// A tile job's error with how to continue it, on the same line.
struct ResumableFailure: Error, CustomStringConvertible, ExitStatusProviding {
    let underlying: any Error
    let hint: String

    init(_ underlying: any Error, hint: String) {
        self.underlying = underlying
        self.hint = hint
    }

    var description: String { "\(commandLineMessage(underlying)); \(hint)" }
    var exitStatus: Int32 { (underlying as? ExitStatusProviding)?.exitStatus ?? 1 }
}
