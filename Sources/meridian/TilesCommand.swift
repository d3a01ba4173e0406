import DataSources
import Foundation
import MapModel
import Raster
import Render
import Tiles

enum TilesCommand: Subcommand {
    static let name = "tiles"
    static let summary = "render an XYZ tile pyramid into a directory or an MBTiles file"
    static let usage = """
        usage: meridian tiles MAP.json --zoom Z|ZMIN-ZMAX [--bbox W,S,E,N] -o DIR | -o FILE.mbtiles [options]

          --zoom 0-6            zoom levels: one (5) or a range (0-6); 0 to 24
          --bbox W,S,E,N        the area, in degrees (default: the whole world)
          -o, --output PATH     a directory (z/x/y.png) or a file ending in .mbtiles
          --workers N           rendering threads (default: the machine's cores)
          --metatile N          tiles a side rendered as one image, then cut (default 8)
          --buffer PX           pixels drawn around a metatile so symbols and labels cross its
                                edges (default 128; @2x tiles draw twice as many)
          --tile-size 256|512   tile size in pixels (default 256)
          --scale 1|2           2 for high-density @2x tiles: twice the pixels, same scales
          --scheme xyz|tms      directory rows from the north (xyz, default) or the south (tms)
          --resume              skip tiles already written by an earlier run of the same job
          --skip-empty          write no tile whose pixels are all transparent (the default
                                when the map's background is transparent)
          --shard I/N           render only the I-th of N parts of the job (I from 0)
          --summary-json FILE   also write the summary as JSON
          --quiet               print nothing but errors
        """
    static let flags: Set<String> = ["resume", "quiet", "skip-empty"]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let zooms = try TileOptions.zoom(try arguments.required("zoom"))
        let bounds = try arguments.value("bbox").map(TileOptions.bounds) ?? .world
        let output = try arguments.required("output")
        let workers = try integer(arguments, "workers") ?? ProcessInfo.processInfo.activeProcessorCount
        let metatileSize = try integer(arguments, "metatile") ?? 8
        let buffer = try integer(arguments, "buffer") ?? 128
        let format = try TileFormat(
            tileSize: try integer(arguments, "tile-size") ?? 256,
            pixelRatio: try integer(arguments, "scale") ?? 1)
        let schemeText = try arguments.value("scheme")
        let shard = try arguments.value("shard").map(TileOptions.shard)
        let summaryPath = try arguments.value("summary-json")
        let resume = arguments.flag("resume")
        let quiet = arguments.flag("quiet")
        let skipEmptyFlag = arguments.flag("skip-empty")
        try arguments.finish(maxPositional: 1)
        guard let mapPath = arguments.positional.first else {
            throw UsageError("give the map document: meridian tiles MAP.json --zoom 0-6 -o DIR")
        }
        let isMBTiles = output.lowercased().hasSuffix(".mbtiles")
        var scheme = TileScheme.xyz
        if let schemeText {
            guard let chosen = TileScheme(rawValue: schemeText) else {
                throw UsageError("--scheme expects xyz or tms, got '\(schemeText)'")
            }
            if isMBTiles {
                throw UsageError("--scheme is for directories: MBTiles files always number rows from the south (TMS)")
            }
            scheme = chosen
        }
        // Checked now, not when the workers make their renderers after the output exists.
        try MapTileRenderer.check(buffer: buffer)
        let pyramid = try TilePyramid(zooms: zooms, bounds: bounds)
        let plan = try MetatilePlan(pyramid: pyramid, size: metatileSize, shard: shard)
        let metatilePixels = metatileSize * format.pixels
        guard metatilePixels <= View.maxSide else {
            throw UsageError(
                "--metatile \(metatileSize) with \(format.pixels) px tiles makes \(metatilePixels) px images, more than \(View.maxSide): use a smaller --metatile"
            )
        }
        var job = try TileJob(plan: plan, workers: workers, resume: resume)

        let map = try LoadedMap.load(path: mapPath, opener: DataSourceOpener())
        if skipEmptyFlag || map.document.background.alpha == 0 {
            job = try TileJob(plan: plan, workers: workers, resume: resume, skipEmpty: true)
        }
        let name = map.document.name ?? ((mapPath as NSString).lastPathComponent as NSString).deletingPathExtension
        let sink: any TileSink
        if isMBTiles {
            let metadata = TileSetMetadata(
                name: name, attribution: map.document.attribution, pyramid: pyramid,
                format: format, buffer: buffer)
            sink = try MBTilesSink(path: output, metadata: metadata, resume: resume)
        } else {
            sink = try DirectorySink(
                root: output, scheme: scheme, job: shard.map { "shard-\($0.index)-of-\($0.count)" } ?? "job")
        }
        // Imagery compresses better filtered (PNGEncodingOptions.imagery).
        let imagery = map.document.layers.contains { $0.raster != nil }
        let encoder = PNGTileEncoder(options: imagery ? .imagery : PNGEncodingOptions())
        let summary = try job.run(sink: sink, encoder: encoder, progress: .automatic(quiet: quiet)) {
            try MapTileRenderer(map: map, format: format, buffer: buffer)
        }
        if let summaryPath {
            do { try FileIO.writeAtomically(Array(summary.json().utf8), toPath: summaryPath) } catch {
                throw UsageError("--summary-json: \(error)")
            }
        }
        if !quiet { print("\(summary.text) -> \(output)") }
        return 0
    }

    private static func integer(_ arguments: Arguments, _ option: String) throws -> Int? {
        guard let text = try arguments.value(option) else { return nil }
        guard let value = Int(text) else { throw UsageError("--\(option) expects a whole number, got '\(text)'") }
        return value
    }
}
