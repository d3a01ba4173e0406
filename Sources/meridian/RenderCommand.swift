import Foundation

enum RenderCommand: Subcommand {
    static let name = "render"
    static let summary = "render a map document to a PNG, PDF or SVG image"
    static let usage = "usage: meridian render MAP.json (--bbox W,S,E,N | --center LON,LAT --scale DENOM) --size WxH [--dpi D] -o OUT.png"
    static let flags: Set<String> = []

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.finish(maxPositional: 1)
        throw UsageError("not implemented yet")
    }
}
