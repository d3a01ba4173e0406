import Foundation
import Tiles

enum MergeCommand: Subcommand {
    static let name = "merge"
    static let summary = "join MBTiles files (the shards of a tile job) into one"
    static let usage = """
        usage: meridian merge A.mbtiles B.mbtiles ... -o ALL.mbtiles [--quiet]

          -o, --output FILE     the joined MBTiles file (replaced if it exists)
          --quiet               print nothing but errors

        Every tile of every input is copied; identical images are stored once. A tile present in
        two inputs with different contents is an error (the inputs are not parts of one job).
        The metadata is the first input's, with bounds and zoom range widened to hold them all.
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
        let summary = try MBTilesMerger.merge(inputs: inputs, output: output)
        if !quiet {
            print(
                "merged \(summary.inputs) files: \(summary.tiles) tiles (\(summary.distinctImages) distinct images, \(summary.bytes) bytes) -> \(output)"
            )
        }
        return 0
    }
}
