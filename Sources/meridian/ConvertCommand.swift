import Foundation
import Tiles

enum ConvertCommand: Subcommand {
    static let name = "convert"
    static let summary = "copy a tile set between a directory, an MBTiles file and a PMTiles archive"
    static let usage = """
        usage: meridian convert SOURCE TARGET [--scheme xyz|tms] [--quiet]

        SOURCE and TARGET are each a directory pyramid, an MBTiles file (.mbtiles) or a PMTiles
        archive (.pmtiles), in any direction. Every tile is copied with its bytes unchanged, and
        the metadata with it (name, description, attribution, bounds, centre, zooms, format,
        type; a directory keeps them in its tiles.json). A directory target also gets the
        viewer page, index.html. A file target is written as NAME.partial and renamed when
        complete; a failed or stopped conversion leaves no file.

          --scheme xyz|tms      rows of a directory target from the north (xyz, default) or the
                                south (tms); a directory source says its own in tiles.json
          --quiet               print nothing but errors
        """
    static let flags: Set<String> = ["quiet"]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let schemeText = try arguments.value("scheme")
        let quiet = arguments.flag("quiet")
        try arguments.finish(maxPositional: 2)
        guard arguments.positional.count == 2 else {
            throw UsageError("give the source and the target: meridian convert world.mbtiles world.pmtiles")
        }
        let source = arguments.positional[0]
        let target = arguments.positional[1]
        let sourceKind = try TileOptions.archiveKind(source, option: "source")
        let targetKind = try TileOptions.archiveKind(target, option: "target")
        var scheme = TileScheme.xyz
        if let schemeText {
            guard let chosen = TileScheme(rawValue: schemeText) else {
                throw UsageError("--scheme expects xyz or tms, got '\(schemeText)'")
            }
            guard targetKind == .directory else { throw UsageError("--scheme is for a directory target") }
            scheme = chosen
        }
        if URL(fileURLWithPath: source).standardizedFileURL == URL(fileURLWithPath: target).standardizedFileURL {
            throw TilesError.outputIsInput(path: target)
        }
        guard sourceKind == .directory || FileManager.default.fileExists(atPath: source) else {
            throw TilesError.io(path: source, message: "no such file")
        }
        try TileOutputs.checkWritable(target, kind: targetKind)

        let reader = try openPyramid(source)
        let metadata = try reader.metadata()
        let sink = try TileOutputs.sink(target, kind: targetKind, metadata: metadata, resume: false, scheme: scheme)
        StopSignals.shared.install()
        let statistics = try TileCopy.copy(from: reader, into: sink, stop: StopSignals.shared.request)
        if targetKind == .directory {
            let viewer = try PyramidFiles.write(root: target, metadata: metadata, scheme: scheme, withoutGrid: false)
            if !viewer {
                printError(
                    "meridian convert: no viewer page beside \(target): Leaflet is not installed (\(LeafletAssets.installed), Debian's libjs-leaflet)"
                )
            }
        }
        if !quiet {
            let distinct = statistics.newImages.map { " (\($0) distinct)" } ?? ""
            print("\(statistics.tiles) tiles\(distinct) converted: \(source) -> \(target)")
        }
        return 0
    }
}
