import Foundation
import MapModel
import Render

enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "render a map document to a PNG, PDF or SVG image"
    static let usage = """
        usage: meridian render MAP.json (--bbox W,S,E,N | --center LON,LAT --scale DENOM) --size WxH [--dpi D] -o OUT.png|OUT.pdf|OUT.svg

          --bbox W,S,E,N        the area to show, in degrees; it grows to the image's shape
          --center LON,LAT      the centre of the view, with --scale
          --scale DENOM         the scale denominator (50000 for 1:50,000)
          --size WxH            the image size in pixels
          --dpi D               pixels per inch (default 90.714: the OGC 0.28 mm pixel)
          -o, --output FILE     .png, .pdf or .svg
        """
    static let flags: Set<String> = []

    static func run(_ arguments: Arguments) throws -> Int32 {
        let view = try ViewOptions.view(arguments)
        let output = try arguments.required("output")
        try arguments.finish(maxPositional: 1)
        guard let mapPath = arguments.positional.first else { throw UsageError("give the map document: meridian render MAP.json ...") }
        _ = try ImageWriter.format(forPath: output)
        let map = try LoadedMap.load(path: mapPath)
        let renderer = try MapRenderer(map: map)
        try ImageWriter.write(renderer, view: view, to: output)
        return 0
    }
}
