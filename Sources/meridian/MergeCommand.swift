import Foundation
import Tiles

enum MergeCommand: Subcommand {
    static let name = "merge"
    static let summary = "join tile sets (the shards of a tile job) into one MBTiles file or PMTiles archive"
    static let usage = """
        usage: meridian merge A.mbtiles B.mbtiles ... -o ALL.mbtiles | ALL.pmtiles [--quiet]

          -o, --output FILE     the joined tile set: an MBTiles file or a PMTiles archive
                                (replaced if it exists, when the new one is complete)
          --quiet               print nothing but errors

        The inputs are MBTiles files, PMTiles archives or directory pyramids, in any mix.
        Every tile of every input is copied; identical images are stored once. A tile present in
        two inputs with different contents is an error (the inputs are not parts of one job), and
        so are inputs whose tiles differ in format, size or pixel ratio. The metadata is the first
        input's, with bounds and zoom range widened to hold them all.
        """
    static let flags: Set<String> = ["quiet"]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let output = try arguments.required("output")
        let quiet = arguments.flag("quiet")
        try arguments.finish(maxPositional: Int.max)
        let inputs = arguments.positional
        guard !inputs.isEmpty else {
            throw UsageError("give the MBTiles files to merge: meridian merge A.mbtiles B.mbtiles -o ALL.mbtiles")
        }
        guard try TileOptions.archiveKind(output) != .directory else {
            throw UsageError("-o \(output): merge writes an MBTiles file (.mbtiles) or a PMTiles archive (.pmtiles)")
        }
        for input in inputs { _ = try TileOptions.archiveKind(input, option: "input") }
        StopSignals.shared.install()
        let summary = try TileSetMerger.merge(inputs: inputs, output: output, stop: StopSignals.shared.request)
        if !quiet {
            print(
                "merged \(summary.inputs) files: \(summary.tiles) tiles (\(summary.distinctImages) distinct images, \(summary.bytes) bytes) -> \(output)"
            )
        }
        return 0
    }
}
