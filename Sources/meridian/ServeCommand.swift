import DataSources
import Dispatch
import Foundation
import MapModel
import Render
import Serve
import Tiles

enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "serve tiles over HTTP with a viewer page: a tile set, or a map rendered on demand"
    static let usage = """
        usage: meridian serve MAP.json | DIR | FILE.mbtiles | FILE.pmtiles [--port 8080] [--bind 127.0.0.1] [options]

        Serves /{z}/{x}/{y}.png (or .webp, .jpg), the viewer page at / and TileJSON at /tiles.json,
        and prints one line per request. A map document is rendered on demand, metatile by metatile,
        into exactly the tiles `meridian tiles` makes with the same options.

          --port N              the TCP port (default 8080; 0 takes any free port)
          --bind ADDRESS        the address to listen on (default 127.0.0.1, this machine only;
                                0.0.0.0 for every IPv4 interface)
          --threads N           requests answered at once (default 8)
          --quiet               no line per request

        For a map document, the options of `meridian tiles`:
          --zoom 0-18           zoom levels served (default 0-18)
          --bbox W,S,E,N        the area served, in degrees (default: the whole world)
          --format png|webp|jpeg, --quality 1-100, --tile-size 256|512, --scale 1|2,
          --buffer PX, --metatile N, --skip-empty, --no-skip-empty
          --workers N           rendering threads (default: the machine's cores)
          --cache DIR           keep rendered tiles in DIR, a directory pyramid, and serve them
                                from there (also after a restart)
          --memory-cache MB     tiles kept in memory (default 64)

        SIGINT or SIGTERM stop the server cleanly: requests being answered are finished.
        """
    static let flags: Set<String> = ["quiet", "skip-empty", "no-skip-empty"]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let port = try TileOptions.integer(arguments, "port") ?? 8080
        let address = try arguments.value("bind") ?? "127.0.0.1"
        let threads = try TileOptions.integer(arguments, "threads") ?? 8
        let zoomText = try arguments.value("zoom")
        let bboxText = try arguments.value("bbox")
        let formatName = try arguments.value("format")
        let quality = try TileOptions.integer(arguments, "quality")
        let tileSize = try TileOptions.integer(arguments, "tile-size")
        let scale = try TileOptions.integer(arguments, "scale")
        let buffer = try TileOptions.integer(arguments, "buffer")
        let metatile = try TileOptions.integer(arguments, "metatile")
        let workers = try TileOptions.integer(arguments, "workers")
        let cache = try arguments.value("cache")
        let memoryMB = try TileOptions.integer(arguments, "memory-cache")
        let quiet = arguments.flag("quiet")
        let skipEmptyAsked = try TileOptions.skipEmpty(arguments)
        try arguments.finish(maxPositional: 1)
        guard let input = arguments.positional.first else {
            throw UsageError("give what to serve: meridian serve MAP.json | DIR | FILE.mbtiles | FILE.pmtiles")
        }
        guard (1...256).contains(threads) else { throw UsageError("--threads \(threads) is out of range: 1 to 256") }

        let tiles: any ServedTiles
        if input.lowercased().hasSuffix(".json") {
            let format = try TileFormat(tileSize: tileSize ?? 256, pixelRatio: scale ?? 1)
            let imageFormat = try TileOptions.imageFormat(formatName ?? "png", quality: quality)
            let pyramid = try TilePyramid(
                zooms: try TileOptions.zoom(zoomText ?? "0-18"), bounds: try bboxText.map(TileOptions.bounds) ?? .world)
            let bufferPixels = buffer ?? 128
            try MapTileRenderer.check(buffer: bufferPixels)
            let memory = memoryMB ?? 64
            guard (1...65536).contains(memory) else {
                throw UsageError("--memory-cache \(memory) is out of range: 1 to 65536 MB")
            }
            if let cache { try TileOutputs.checkWritable(cache, kind: .directory) }
            let map = try LoadedMap.load(path: input, opener: DataSourceOpener())
            try warnAboutMap(map, command: Self.name)
            var withoutGrid: LoadedMap?
            if !map.document.grids.isEmpty {
                var document = map.document
                document.grids = []
                withoutGrid = try LoadedMap(document: document, opener: DataSourceOpener())
            }
            let transparent = map.document.background.alpha == 0
            let name = map.document.name ?? ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let metadata = TileSetMetadata(
                name: name, attribution: map.document.attribution, pyramid: pyramid, format: format,
                buffer: bufferPixels, imageFormat: imageFormat, type: transparent ? .overlay : .baselayer)
            tiles = try RenderedTiles(
                map: map, withoutGrid: withoutGrid, metadata: metadata,
                options: RenderedTiles.Options(
                    pyramid: pyramid, format: format, imageFormat: imageFormat, buffer: bufferPixels,
                    metatileSize: metatile ?? 8, workers: workers ?? ProcessInfo.processInfo.activeProcessorCount,
                    skipEmpty: TileOptions.skipsEmpty(skipEmptyAsked, transparentBackground: transparent),
                    memoryBytes: memory << 20),
                cache: cache)
        } else {
            let renderingOptions: [(String, Any?)] = [
                ("zoom", zoomText), ("bbox", bboxText), ("format", formatName), ("quality", quality),
                ("tile-size", tileSize), ("scale", scale), ("buffer", buffer), ("metatile", metatile),
                ("workers", workers), ("cache", cache), ("memory-cache", memoryMB),
            ]
            if let given = renderingOptions.first(where: { $0.1 != nil }) {
                throw UsageError("--\(given.0) is for serving a map document (MAP.json), not a tile set")
            }
            if skipEmptyAsked != nil { throw UsageError("--skip-empty is for serving a map document") }
            _ = try TileOptions.archiveKind(input, option: "serve")
            tiles = try ArchiveTiles(path: input)
        }

        let service = TileService(tiles: tiles)
        let server = try HTTPServer(address: address, port: port, threads: threads) { request in
            let started = Date()
            let response = service.respond(to: request)
            if quiet { return response }
            let line = AccessLog.line(request, response, seconds: Date().timeIntervalSince(started))
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
            return response
        }
        let host = address.contains(":") ? "[\(address)]" : address
        let format = tiles.metadata.values["format"] ?? "png"
        FileHandle.standardOutput.write(
            Data(
                "serving \(tiles.metadata.values["name"] ?? input) at http://\(host):\(server.port)/ (tiles at /{z}/{x}/{y}.\(format), TileJSON at /tiles.json); Ctrl-C stops\n"
                    .utf8))

        // Runs until SIGINT or SIGTERM.
        let stopped = DispatchSemaphore(value: 0)
        StopSignals.shared.install()
        StopSignals.shared.request.onRequest { stopped.signal() }
        stopped.wait()
        server.stop()
        try tiles.stop()
        printError("meridian serve: stopped after \(service.requestCount) requests")
        return StopSignals.shared.exitStatus
    }
}

extension ServeError: ExitStatusProviding {
    /// Starting failed: the port is taken, the address is not one (1).
    var exitStatus: Int32 { 1 }
}
