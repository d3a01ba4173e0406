import DataSources
import Foundation
import MapModel
import Raster
import Render
import Tiles

enum TilesCommand: Subcommand {
    static let name = "tiles"
    static let summary = "render an XYZ tile pyramid into a directory, an MBTiles file or a PMTiles archive"
    static let usage = """
        usage: meridian tiles MAP.json --zoom Z|ZMIN-ZMAX [--bbox W,S,E,N] -o DIR | FILE.mbtiles | FILE.pmtiles [options]

          --zoom 0-6            zoom levels: one (5) or a range (0-6); 0 to 24
          --bbox W,S,E,N        the area, in degrees (default: the whole world)
          -o, --output PATH     a directory (z/x/y.png, with tiles.json and a viewer page,
                                index.html), an MBTiles file (.mbtiles) or a PMTiles archive
                                (.pmtiles); a file is written as NAME.partial and renamed when
                                the job is complete
          --format png|webp|jpeg  the tiles' image format (default png); JPEG has no transparency:
                                tiles are composited over white
          --quality 1-100       lossy WebP or JPEG quality (WebP without it is lossless; JPEG
                                defaults to 90)
          --skip-empty          store no tile whose pixels are all transparent (the default when
                                the map's background is transparent); --no-skip-empty stores them
          --workers N           rendering threads (default: the machine's cores)
          --metatile N          tiles a side rendered as one image, then cut (default 8)
          --buffer PX           pixels drawn around a metatile so symbols and labels cross its
                                edges (default 128; @2x tiles draw twice as many)
          --tile-size 256|512   tile size in pixels (default 256)
          --scale 1|2           2 for high-density @2x tiles: twice the pixels, same scales
          --scheme xyz|tms      directory rows from the north (xyz, default) or the south (tms)
          --no-grid-layer       for a map with a grid, write no without-grid/ layer beside a
                                directory pyramid (the viewer then has no grid switch)
          --resume              continue a job that failed or was stopped (same options)
          --shard I/N           render only the I-th of N parts of the job (I from 0)
          --summary-json FILE   also write the summary as JSON
          --quiet               print nothing but errors

        SIGINT or SIGTERM stop the job cleanly: what is complete is kept, --resume continues.
        """
    static let flags: Set<String> = ["resume", "quiet", "skip-empty", "no-skip-empty", "no-grid-layer"]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let zooms = try TileOptions.zoom(try arguments.required("zoom"))
        let bounds = try arguments.value("bbox").map(TileOptions.bounds) ?? .world
        let output = try arguments.required("output")
        let workers = try TileOptions.integer(arguments, "workers") ?? ProcessInfo.processInfo.activeProcessorCount
        let metatileSize = try TileOptions.integer(arguments, "metatile") ?? 8
        let buffer = try TileOptions.integer(arguments, "buffer") ?? 128
        let format = try TileFormat(
            tileSize: try TileOptions.integer(arguments, "tile-size") ?? 256,
            pixelRatio: try TileOptions.integer(arguments, "scale") ?? 1)
        let imageFormat = try TileOptions.imageFormat(
            try arguments.value("format") ?? "png", quality: try TileOptions.integer(arguments, "quality"))
        let schemeText = try arguments.value("scheme")
        let shard = try arguments.value("shard").map(TileOptions.shard)
        let summaryPath = try arguments.value("summary-json")
        let resume = arguments.flag("resume")
        let quiet = arguments.flag("quiet")
        let skipEmptyAsked = try TileOptions.skipEmpty(arguments)
        let noGridLayer = arguments.flag("no-grid-layer")
        try arguments.finish(maxPositional: 1)
        guard let mapPath = arguments.positional.first else {
            throw UsageError("give the map document: meridian tiles MAP.json --zoom 0-6 -o DIR")
        }
        let kind = try TileOptions.archiveKind(output)
        var scheme = TileScheme.xyz
        if let schemeText {
            guard let chosen = TileScheme(rawValue: schemeText) else {
                throw UsageError("--scheme expects xyz or tms, got '\(schemeText)'")
            }
            if kind != .directory {
                throw UsageError(
                    "--scheme is for directories: MBTiles files always number rows from the south (TMS), PMTiles use tile IDs"
                )
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
        // Every output is checked before the work starts: the summary's file is created now
        // (and removed unless the job completes).
        let summaryFile = try summaryPath.map { path in
            do { return try AtomicFile(path: path) } catch { throw OutputError("--summary-json: \(error)") }
        }
        try TileOutputs.checkWritable(output, kind: kind)

        // Shown from the start: reading large sources can take minutes before the first tile.
        let progress = TileProgress.automatic(quiet: quiet)
        progress.startHeartbeat()
        let map = try LoadedMap.load(path: mapPath, opener: DataSourceOpener(progress: progress))
        try warnAboutMap(map, command: Self.name)
        let transparent = map.document.background.alpha == 0
        let skipEmpty = TileOptions.skipsEmpty(skipEmptyAsked, transparentBackground: transparent)
        let name = map.document.name ?? ((mapPath as NSString).lastPathComponent as NSString).deletingPathExtension
        let metadata = TileSetMetadata(
            name: name, attribution: map.document.attribution, pyramid: pyramid, format: format, buffer: buffer,
            imageFormat: imageFormat, type: transparent ? .overlay : .baselayer)
        let gridLayer = kind == .directory && !map.document.grids.isEmpty && !noGridLayer
        let job = try TileJob(plan: plan, workers: workers, resume: resume, skipEmpty: skipEmpty)
        let jobName = shard.map { "shard-\($0.index)-of-\($0.count)" } ?? "job"

        StopSignals.shared.install()
        let summary = try render(
            map: map, into: output, kind: kind, scheme: scheme, metadata: metadata, job: job, jobName: jobName,
            imageFormat: imageFormat, format: format, buffer: buffer, progress: progress)
        if gridLayer {
            var document = map.document
            document.grids = []
            let withoutGrid = try LoadedMap(document: document, opener: DataSourceOpener())
            let layerSummary = try render(
                map: withoutGrid, into: output + "/" + ViewerPage.withoutGridFolder, kind: .directory, scheme: scheme,
                metadata: metadata, job: job, jobName: jobName, imageFormat: imageFormat, format: format,
                buffer: buffer, progress: .automatic(quiet: quiet))
            if !quiet {
                print("\(layerSummary.text) -> \(output)/\(ViewerPage.withoutGridFolder) (the map without its grid)")
            }
        }
        if kind == .directory {
            let viewer = try PyramidFiles.write(
                root: output, metadata: metadata, scheme: scheme, withoutGrid: gridLayer)
            if !viewer {
                printError(
                    "meridian tiles: no viewer page beside \(output): Leaflet is not installed (\(LeafletAssets.installed), Debian's libjs-leaflet)"
                )
            }
        }
        if let summaryFile {
            do {
                try summaryFile.append(Array(summary.json().utf8))
                try summaryFile.commit()
            } catch { throw OutputError("--summary-json: \(error)") }
        }
        if !quiet { print("\(summary.text) -> \(output)") }
        return 0
    }

    /// Runs one job into one output. A failure says how to continue; a stop says how far
    /// the job got (`TilesError.stopped`).
    private static func render(
        map: LoadedMap, into output: String, kind: TileArchiveKind, scheme: TileScheme, metadata: TileSetMetadata,
        job: TileJob, jobName: String, imageFormat: TileImageFormat, format: TileFormat, buffer: Int,
        progress: TileProgress
    ) throws -> TileJobSummary {
        let sink = try TileOutputs.sink(
            output, kind: kind, metadata: metadata, resume: job.resume, scheme: scheme, job: jobName)
        do {
            return try job.run(
                sink: sink, encoder: imageFormat.encoder(imagery: map.document.hasRasterLayers), progress: progress,
                stop: StopSignals.shared.request
            ) {
                try MapTileRenderer(
                    map: map, format: format, buffer: buffer, progress: progress, extent: job.plan.pyramid.bounds)
            }
        } catch let error as TilesError {
            if case .stopped = error { throw error }
            throw ResumableFailure(error, hint: TileOutputs.resumeHint(sink))
        } catch {
            throw ResumableFailure(error, hint: TileOutputs.resumeHint(sink))
        }
    }
}
